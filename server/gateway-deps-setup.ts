/**
 * What the gateway role's transports (HTTP, WebSocket, gRPC) share in one process: the room
 * client and command entry, one feed per room, the session connections that end with their
 * session, and the livestreams this gateway ingests.
 */
import { ActorClient, ActorEvents } from '../actors/index.js';
import type { StartupConfig } from '../config/index.js';
import { ConnectionCap, type GatewayDeps, liveMetrics, RoomClient, RoomCommandEntry, RoomFeeds, RoomRates, RoomWatcher, SessionConnections, startLivestreams } from '../gateways/index.js';
import type { MediaServices, SliceCache } from '../media/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { SfuRooms, sfuConfigOf } from '../sfu/index.js';
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
    media,
    rooms,
    logger,
    httpUrl: setup.httpUrl,
  });
  stops.push(() => livestreams.stop());
  liveMetrics(setup.metrics.registry, [() => livestreams.live.ingest, () => livestreams.live.pulls]);
  const sfu = sfuConfigOf(config);
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
    ...(sfu ? { sfu: { config: sfu, rooms: new SfuRooms(sfu) } } : {}),
    live: livestreams.live,
    media,
  };
}
