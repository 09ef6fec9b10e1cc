/**
 * What the gateway role's transports (HTTP, WebSocket, gRPC) share in one process: the room
 * client and command entry, one feed per room, the session connections that end with their
 * session, and the livestreams this gateway ingests.
 */
import { ActorClient } from '../actors/runtime/client.js';
import { ActorEvents } from '../actors/runtime/events.js';
import type { StartupConfig } from '../config/types.js';
import { ConnectionCap } from '../gateways/connection-cap.js';
import type { GatewayDeps } from '../gateways/gateway-deps.js';
import { RoomCommandEntry } from '../gateways/rooms/command-entry.js';
import { RoomClient } from '../gateways/rooms/room-client.js';
import { RoomFeeds } from '../gateways/rooms/room-feed.js';
import { RoomRates } from '../gateways/rooms/room-rates.js';
import { RoomWatcher } from '../gateways/rooms/room-watch.js';
import { liveMetrics } from '../gateways/rtmp/live-metrics.js';
import { startLivestreams } from '../gateways/rtmp/start-live.js';
import { SessionConnections } from '../gateways/session-connections.js';
import type { SliceCache } from '../media/cache/slice-cache.js';
import type { MediaServices } from '../media/media-services.js';
import type { Logger } from '../observability/logger.js';
import type { Metrics } from '../observability/metrics.js';
import type { Connections } from './connections.js';
import type { SharedServices } from './shared-services.js';
import type { Stops } from './stops.js';

export interface GatewayDepsSetup {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  shared: SharedServices;
  media: MediaServices;
  metrics: Metrics;
  sliceCache: SliceCache | undefined;
  /** The public HTTP address once it listens (livestreams name it to other replicas). */
  httpUrl: () => string;
}

export async function setUpGatewayDeps(setup: GatewayDepsSetup, stops: Stops): Promise<GatewayDeps> {
  const { config, logger, connections, media, sliceCache } = setup;
  const { settings, accounts, reviews } = setup.shared;
  const rooms = new RoomClient(new ActorClient(connections.nats, config.nats.subject_prefix), new RoomRates(connections.redis, config.rooms));
  const events = new ActorEvents(connections.nats, config.nats.subject_prefix, logger);
  const feeds = new RoomFeeds(events, connections.nats, logger);
  stops.push(() => Promise.resolve(feeds.close()));
  const sessionConnections = new SessionConnections(connections.nats, config.nats.subject_prefix, accounts.sessions, settings, logger);
  stops.push(() => Promise.resolve(sessionConnections.close()));
  const livestreams = await startLivestreams({
    config,
    pool: connections.pool,
    nats: connections.nats,
    box: accounts.box,
    grants: media.grants,
    rooms,
    logger,
    httpUrl: setup.httpUrl,
  });
  stops.push(() => livestreams.stop());
  liveMetrics(setup.metrics.registry, () => livestreams.live.ingest);
  return {
    config,
    logger,
    pool: connections.pool,
    redis: connections.redis,
    nats: connections.nats,
    settings,
    accounts,
    reviews,
    rooms,
    commands: new RoomCommandEntry(rooms),
    events,
    feeds,
    watcher: new RoomWatcher(feeds, rooms, settings, logger),
    connections: sessionConnections,
    connectionCap: new ConnectionCap(),
    ...(sliceCache ? { sliceCache } : {}),
    live: livestreams.live,
    media,
  };
}
