/**
 * The public surface of gateways/: what code outside gateways/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { ConnectionCap } from './connection-cap.js';
export { type GatewayDeps } from './gateway-deps.js';
export { startGrpcServer } from './grpc/server.js';
export { createHttpApp } from './http/app.js';
export { startMetricsListener } from './http/metrics-listener.js';
export { httpServer, requestListener } from './http/request-listener.js';
export { cookiePolicyFor } from './http/session-cookie.js';
export { ManagementClient } from './management/client.js';
export { startManagementServer, type ManagementServer } from './management/server.js';
export { RoomCommandEntry } from './rooms/command-entry.js';
export { RoomClient } from './rooms/room-client.js';
export { RoomFeeds } from './rooms/room-feed.js';
export { RoomRates } from './rooms/room-rates.js';
export { RoomWatcher } from './rooms/room-watch.js';
export { liveMetrics } from './rtmp/live-metrics.js';
export { startLivestreams } from './rtmp/start-live.js';
export { SessionConnections } from './session-connections.js';
export { startStunListener } from './stun/listener.js';
export { RealtimeGateway } from './ws/gateway.js';
