import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { NativeConnection } from '@temporalio/worker';
import { resolveManagementEndpoint } from '../config/management-endpoint.js';
import type { StartupConfig } from '../config/types.js';
import { AppError } from '../errors/app-error.js';
import { createRoomActorType, ROOM_ACTOR_TYPE, runChatRetention } from '../actors/room/index.js';
import { ActorClient } from '../actors/runtime/client.js';
import { ActorEvents } from '../actors/runtime/events.js';
import { purgeExpiredCommands } from '../actors/runtime/command-log.js';
import { ActorHost } from '../actors/runtime/host.js';
import { Accounts } from '../accounts/accounts.js';
import { natsRevocationPublisher } from '../accounts/sessions/revocation.js';
import { ConnectionCap } from '../gateways/connection-cap.js';
import { SessionConnections } from '../gateways/session-connections.js';
import { purgeCodes } from '../accounts/email/codes.js';
import { createMailer } from '../mail/mailer.js';
import { natsNotificationPublisher } from '../notifications/publisher.js';
import { purgeOldNotifications } from '../notifications/store.js';
import { startGrpcServer } from '../gateways/grpc/server.js';
import { createHttpApp } from '../gateways/http/app.js';
import { startMetricsListener } from '../gateways/http/metrics-listener.js';
import { cookiePolicyFor } from '../gateways/http/session-cookie.js';
import type { GatewayDeps } from '../gateways/gateway-deps.js';
import { RoomCommandEntry } from '../gateways/rooms/command-entry.js';
import { RoomClient } from '../gateways/rooms/room-client.js';
import { RoomFeeds } from '../gateways/rooms/room-feed.js';
import { RoomRates } from '../gateways/rooms/room-rates.js';
import { RoomWatcher } from '../gateways/rooms/room-watch.js';
import { startManagementServer, type ManagementServer } from '../gateways/management/server.js';
import { liveMetrics } from '../gateways/rtmp/live-metrics.js';
import { startLivestreams } from '../gateways/rtmp/start-live.js';
import { RealtimeGateway } from '../gateways/ws/gateway.js';
import { startStunListener } from '../gateways/stun/listener.js';
import { SliceCache } from '../media/cache/slice-cache.js';
import { iceServerSource } from '../media/webrtc/ice-servers.js';
import type { Logger } from '../observability/logger.js';
import { actorHostMetrics } from '../observability/actor-metrics.js';
import { createMetrics } from '../observability/metrics.js';
import { startTracing } from '../observability/tracing.js';
import { createMediaServices } from '../media/media-services.js';
import { mediaToolMetrics } from '../media/tools/tool-metrics.js';
import { UpstreamSeekProbe } from '../media/seek-probe.js';
import { liveProvider } from '../media/providers/live.js';
import { LibraryProvider } from '../media/providers/library.js';
import { createMediaLibraries } from '../media/libraries/create.js';
import { RuntimeSettings } from '../settings/runtime-settings.js';
import { migrate, pendingMigrations } from '../store/migrate.js';
import { createActivities } from '../workflows/activities.js';
import { ReviewClient } from '../workflows/review-client.js';
import { reviewMetricsSinks } from '../workflows/review-metrics-sink.js';
import { WorkflowRoomReviewHook } from '../workflows/room-review/hook.js';
import { actorRoomDecisions } from '../workflows/room-review/room-decisions.js';
import { ensureSearchAttributes, installTemporalLogging, prepareReviewWorkflows, reviewWorkflowBundle, startReviewWorker } from '../workflows/worker.js';
import { openConnections, type Connections } from './connections.js';
import { createDependencyProbe } from './dependency-probe.js';
import { startPeriodicJob } from './periodic-job.js';
import type { Role } from './roles.js';
import { packageVersion } from './version.js';
import { collectSystemStats } from './system-stats.js';
import { temporalUiLink } from '../workflows/review-link.js';
import { requestListener } from '../gateways/http/request-listener.js';

/** Chat retention is a cleanup, not a guarantee to the minute; once a minute is plenty. */
const CHAT_RETENTION_INTERVAL_MS = 60_000;
/** Ended sessions and spent email codes only take space; removing them hourly is enough. */
const ACCOUNTS_CLEANUP_INTERVAL_MS = 3_600_000;

export interface ServiceOptions {
  config: StartupConfig;
  roles: Role[];
  logger: Logger;
  /** Apply pending migrations before serving (containers that have no separate step). */
  migrateFirst?: boolean;
  /** How long to keep trying while a dependency cannot be reached at start (default 0). */
  dependencyWaitMs?: number;
}

export interface RunningService {
  /** Base URL of the public HTTP API, when this process has the gateway role. */
  httpUrl?: string;
  /** Address (host:port) of the gRPC API, when this process has the gateway role. */
  grpcAddress?: string;
  /** Base URL of the metrics listener (`/metrics`, detailed `/health/ready`), when `metrics.listen` is set. */
  metricsUrl?: string;
  /** UDP port of the built-in STUN listener, when it runs (gateway role, `stun.enabled`). */
  stunPort?: number;
  managementAddress: string;
  settings: RuntimeSettings;
  /** The media proxy's slice cache, when this process is a gateway with `proxy_slice_cache.enabled`. */
  sliceCache?: SliceCache;
  stop(): Promise<void>;
}

/**
 * Starts one replica with the given roles. Every role shares the process's connections and
 * its runtime-settings cache; the management endpoint is served whatever the roles, so
 * `svc system stats` can reach any replica.
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { config, roles, logger } = options;
  const startedAt = new Date();
  if (roles.includes('worker')) {
    // Before any worker connection exists: the Temporal runtime takes its logger when created.
    installTemporalLogging(logger);
    prepareReviewWorkflows(logger);
  }
  const connections = await openConnections(config, logger, options.dependencyWaitMs);
  // Before anything that serves: the HTTP app mounts its span middleware only in a traced process.
  const tracing = startTracing({ config, roles, version: packageVersion(), logger });
  // First in, so last out: the spans of the shutdown itself are flushed too.
  const stops: Array<() => Promise<void>> = [() => tracing.shutdown(), () => connections.close()];
  const stopAll = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop().catch((err: unknown) => logger.error({ err }, 'error while stopping'));
  };

  // Before the roles: each registers its series on this process registry as it starts.
  const metrics = createMetrics();
  try {
    if (options.migrateFirst) await migrate(connections.pool, logger);
    const settings = await RuntimeSettings.start({
      pool: connections.pool,
      connectionString: config.database.url,
      logger,
      replicaId: config.replica_id,
    });
    stops.push(() => settings.stop());
    settings.subscribe((change) =>
      logger.info({ key: change.key, version: change.version, appliedAt: change.appliedAt }, 'runtime setting applied'),
    );

    // Every role may start or decide reviews: actor hosts (rooms under review), the management endpoint.
    const reviews = ReviewClient.fromConnection(connections.temporal, {
      namespace: config.temporal.namespace,
      taskQueue: config.temporal.task_queue,
    });
    // Gateways sign users in; the worker's review activities create the accounts reviewers approve.
    const mailer = createMailer(config.smtp, logger);
    stops.push(() => Promise.resolve(mailer.close()));
    const accounts = new Accounts({
      pool: connections.pool,
      redis: connections.redis,
      settings,
      config,
      reviews,
      mailer,
      publicUrl: config.server.public_url || config.webauthn.rp_origin,
      revocations: natsRevocationPublisher(connections.nats, config.nats.subject_prefix, logger),
      logger,
    });
    stops.push(() => accounts.opaqueOnServer.close());

    if (roles.includes('worker')) {
      await checkTemporalNamespace(connections, config);
      const retention = startPeriodicJob({
        name: 'chat-retention',
        intervalMs: CHAT_RETENTION_INTERVAL_MS,
        logger,
        run: () => runChatRetention(connections.pool, settings, logger),
      });
      stops.push(() => retention.stop());
      // Replies of durable actor commands are kept for retries until a minute past their deadline.
      const commandLog = startPeriodicJob({
        name: 'actor-command-log',
        intervalMs: CHAT_RETENTION_INTERVAL_MS,
        logger,
        run: () => purgeExpiredCommands(connections.pool),
      });
      stops.push(() => commandLog.stop());
      const accountsCleanup = startPeriodicJob({
        name: 'accounts-cleanup',
        intervalMs: ACCOUNTS_CLEANUP_INTERVAL_MS,
        logger,
        run: async () => {
          await accounts.sessions.purgeEnded();
          await purgeCodes(connections.pool);
          await purgeOldNotifications(connections.pool);
        },
      });
      stops.push(() => accountsCleanup.stop());
    }

    // Providers are registered here, before any role uses them (the livestream provider too).
    const media = createMediaServices(config, logger);
    mediaToolMetrics(metrics.registry, media.tools);
    if (config.rtmp.enabled) media.providers.register(liveProvider);
    media.libraries = createMediaLibraries(config, connections.pool, accounts.box, media.client);
    media.providers.register(new LibraryProvider(media.libraries));
    stops.push(() => Promise.resolve(media.close()));

    let host: ActorHost | undefined;
    if (roles.includes('actors')) {
      // Bundling the workflows (webpack) holds the event loop for a second or more: an actor host
      // started meanwhile misses its heartbeats and logs that it lost its lease on a healthy start.
      if (roles.includes('worker')) await reviewWorkflowBundle(logger);
      const actorHost = await ActorHost.start({
        nc: connections.nats,
        prefix: config.nats.subject_prefix,
        hostId: config.replica_id,
        types: [
          createRoomActorType({
            pool: connections.pool,
            settings,
            logger,
            review: new WorkflowRoomReviewHook(reviews),
            notifications: natsNotificationPublisher(connections.nats, config.nats.subject_prefix, logger),
            iceServers: iceServerSource(config),
            voiceMaxParticipants: config.voice.max_participants,
            media: media.providers,
            seekProbe: new UpstreamSeekProbe({ providers: media.providers, http: media.client, logger }),
          }),
        ],
        logger,
        leaseTtlMs: config.actors.lease_ttl_ms,
        heartbeatMs: config.actors.heartbeat_ms,
        idleTimeoutMs: config.actors.idle_timeout_ms,
        mailboxSize: config.actors.mailbox_size,
        maxQueueWaitMs: config.actors.max_queue_wait_ms,
        drainTimeoutMs: config.actors.drain_timeout_ms,
        meter: actorHostMetrics(metrics.registry, { types: [ROOM_ACTOR_TYPE], activeByType: () => host?.activeByType() }),
      });
      host = actorHost;
      // Drained before the connections close: rooms are persisted and handed off first.
      stops.push(() => actorHost.drain());
    }

    if (roles.includes('worker')) {
      await ensureSearchAttributes(connections.temporal, config.temporal.namespace);
      const workerConnection = await NativeConnection.connect({ address: config.temporal.address });
      stops.push(() => workerConnection.close());
      const worker = await startReviewWorker({
        connection: workerConnection,
        namespace: config.temporal.namespace,
        taskQueue: config.temporal.task_queue,
        activities: createActivities({
          registrations: accounts.registration,
          rooms: actorRoomDecisions(new ActorClient(connections.nats, config.nats.subject_prefix), logger),
        }),
        logger,
        sinks: reviewMetricsSinks(metrics.registry, reviews, logger),
      });
      // Stopped before the actor host drains: a decision in flight still reaches its room.
      stops.push(() => worker.stop());
    }

    const readiness = createDependencyProbe({
      pool: connections.pool,
      redis: connections.redis,
      nats: connections.nats,
      temporal: connections.temporal,
      pendingMigrations: () => pendingMigrations(connections.pool),
    });

    let httpUrl: string | undefined;
    let grpcAddress: string | undefined;
    let stunPort: number | undefined;
    let connectedClients = (): number => 0;
    let sliceCache: SliceCache | undefined;
    if (roles.includes('gateway')) {
      if (config.proxy_slice_cache.enabled) {
        const cache = await SliceCache.open({
          dir: join(config.data_dir, 'slice-cache'),
          maxBytes: config.proxy_slice_cache.size_mb * 1024 * 1024,
          logger,
          registry: metrics.registry,
        });
        sliceCache = cache;
        // Registered before the HTTP server's stop, so it runs after it: no read is still being served.
        stops.push(() => cache.close());
      }
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
        httpUrl: () => httpUrl ?? '',
      });
      stops.push(() => livestreams.stop());
      liveMetrics(metrics.registry, () => livestreams.live.ingest);
      const gateway: GatewayDeps = {
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
      const app = createHttpApp({
        config,
        logger,
        readiness,
        metrics: metrics.http,
        api: { accounts, cookies: cookiePolicyFor(config), reviews, gateway, reviewLink: temporalUiLink(config.temporal.ui_url, config.temporal.namespace) },
        webClient: { embeds: media.providers.embeds() },
      });
      const httpServer = createServer(requestListener(app));
      const realtime = new RealtimeGateway(gateway, { registry: metrics.registry });
      realtime.attach(httpServer);
      connectedClients = countConnections(httpServer);
      await listen(httpServer, config.server.port, config.server.host);
      const { port } = httpServer.address() as AddressInfo;
      const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
      httpUrl = `http://${host}:${port}`;
      const server = httpServer;
      stops.push(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      );
      // Before the server closes its connections: sockets get a 1012 close and rooms their presence.leave.
      stops.push(() => realtime.close());
      if (config.stun.enabled) {
        const stun = await startStunListener(config.stun.host, config.stun.port, logger);
        stunPort = stun.address.port;
        stops.push(() => stun.close());
      }
      const grpcServer = await startGrpcServer(gateway, readiness, config.grpc.host, config.grpc.port);
      grpcAddress = grpcServer.address;
      stops.push(() => grpcServer.stop());
    }

    let metricsUrl: string | undefined;
    if (config.metrics.listen !== '') {
      const listener = await startMetricsListener(config.metrics.listen, metrics.registry, readiness, logger);
      metricsUrl = listener.url;
      stops.push(() => listener.close());
    }

    const management: ManagementServer = await startManagementServer(resolveManagementEndpoint(config), {
      logger,
      settings,
      reviews,
      accounts,
      replicaId: config.replica_id,
      stats: () =>
        collectSystemStats({
          replicaId: config.replica_id,
          roles,
          startedAt,
          readiness,
          connectedClients: () => connectedClients(),
          activeActors: () => host?.activeCount() ?? 0,
          ...(sliceCache ? { sliceCache: () => sliceCache.stats() } : {}),
        }),
    });
    stops.push(() => management.close());

    return {
      ...(httpUrl ? { httpUrl } : {}),
      ...(grpcAddress ? { grpcAddress } : {}),
      ...(metricsUrl ? { metricsUrl } : {}),
      ...(stunPort !== undefined ? { stunPort } : {}),
      managementAddress: management.address,
      settings,
      ...(sliceCache ? { sliceCache } : {}),
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The worker role needs its namespace to exist; say so at start rather than at first use. */
async function checkTemporalNamespace(connections: Connections, config: StartupConfig): Promise<void> {
  try {
    await connections.temporal.workflowService.describeNamespace({ namespace: config.temporal.namespace });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('unavailable', `temporal.namespace "${config.temporal.namespace}" is not usable at ${config.temporal.address}: ${message}`);
  }
}

/** Open client connections of the public HTTP server (WebSocket clients ride on them). */
function countConnections(server: Server): () => number {
  let open = 0;
  server.on('connection', (socket) => {
    open += 1;
    socket.once('close', () => {
      open -= 1;
    });
  });
  return () => open;
}

function listen(server: Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => {
      reject(
        err.code === 'EADDRINUSE'
          ? new AppError('unavailable', `server.port ${port} on ${host} is already in use`)
          : err,
      );
    });
    server.listen(port, host, () => resolve());
  });
}
