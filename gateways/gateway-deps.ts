/**
 * What the client-facing gateways (HTTP API, WebSocket, gRPC) share in one process. They hold
 * no room state: rooms are reached through `rooms`, their events through `events` (one NATS
 * subscription per room per process, shared by every socket and stream in it).
 */
import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import type { Accounts } from '../accounts/index.js';
import type { ActorEvents } from '../actors/index.js';
import type { StartupConfig } from '../config/index.js';
import type { SliceCacheApi } from '../media/index.js';
import type { MediaServices } from '../media/index.js';
import type { Logger } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import type { SfuConfig, SfuRooms } from '../sfu/index.js';
import type { ReviewClient } from '../workflows/index.js';
import type { RoomClient } from './rooms/room-client.js';
import type { RoomCommandEntry } from './rooms/command-entry.js';
import type { LiveDeps } from './rtmp/live-deps.js';
import type { RoomFeeds } from './rooms/room-feed.js';
import type { RoomWatcher } from './rooms/room-watch.js';
import type { ConnectionCap } from './connection-cap.js';
import type { SessionConnections } from './session-connections.js';

export interface GatewayDeps {
  config: StartupConfig;
  logger: Logger;
  pool: pg.Pool;
  redis: Redis;
  nats: NatsConnection;
  settings: RuntimeSettings;
  accounts: Accounts;
  rooms: RoomClient;
  /** Where every client command to a room enters (HTTP, WebSocket, gRPC). */
  commands: RoomCommandEntry;
  events: ActorEvents;
  /** Per-room subscriptions with their rings of recent events (resume). */
  feeds: RoomFeeds;
  /** Opens a connection's watch of a room (presence, snapshot or resume, filtered events). */
  watcher: RoomWatcher;
  /** The long-lived connections held here by session: they end when their session does. */
  connections: SessionConnections;
  /** Room sockets and WatchRoom streams per user in this process. */
  connectionCap: ConnectionCap;
  /** Review workflows; without them the admin review endpoints answer `unavailable`. */
  reviews?: ReviewClient;
  /** Stream keys, the live registry and this replica's RTMP ingest; without it the live endpoints answer `unavailable`. */
  live?: LiveDeps;
  /** Providers, media URL grants and the upstream client; without it the media endpoints and `/media/proxy` are not served. */
  media?: MediaServices;
  /** The SFU (sfu.url) and its room API; without it the call endpoints answer `unavailable`. */
  sfu?: { config: SfuConfig; rooms: SfuRooms };
  /** The proxy's slice cache (proxy_slice_cache.enabled); without it proxied reads go straight upstream. */
  sliceCache?: SliceCacheApi;
}
