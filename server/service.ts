/**
 * One replica: its connections, what every role shares, then each role it was given, then the
 * endpoints operators reach. The order is the start order and, reversed, the stop order (see
 * stops.ts); each role's own start is in its module (gateway-role.ts, actors-role.ts,
 * worker-role.ts with housekeeping.ts). Each role's module is loaded only when the process has
 * that role: a role's modules are most of a process's start (2026-12-01: importing the gateway's
 * took 1.6 s, the actor host's 1.3 s and Temporal's worker SDK, about 680 CommonJS files, 0.9 s),
 * which the other roles' processes need not spend.
 */
import type { ActorHost } from '../actors/index.js';
import type { StartupConfig } from '../config/index.js';
import type { SliceCache } from '../media/index.js';
import { createMetrics, type Logger, packageVersion, startTracing } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import { pendingMigrations } from '../postgres/index.js';
import { openConnections } from './connections.js';
import { createDependencyProbe } from './dependency-probe.js';
import type { GatewayRole } from './gateway-role.js';
import { startHousekeeping } from './housekeeping.js';
import { setUpMedia } from './media-setup.js';
import { startOperatorEndpoints } from './operator-endpoints.js';
import type { Role } from './roles.js';
import { startSharedServices } from './shared-services.js';
import { Stops } from './stops.js';
import { collectSystemStats } from './system-stats.js';

export interface ServiceOptions {
  config: StartupConfig;
  roles: Role[];
  logger: Logger;
  /** Apply pending migrations before serving (containers that have no separate step). */
  migrateFirst?: boolean;
  /** How long to keep trying while a dependency cannot be reached at start (default 0). */
  dependencyWaitMs?: number;
  /** The built web client the gateway serves (default dist/web-client; a test serves a changed copy). */
  webClientRoot?: string;
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
  const [gatewayRole, actorsRole, workerRole, transcoderRole] = await Promise.all([
    roles.includes('gateway') ? import('./gateway-role.js') : undefined,
    roles.includes('actors') ? import('./actors-role.js') : undefined,
    roles.includes('worker') ? import('./worker-role.js') : undefined,
    roles.includes('transcoder') ? import('./transcoder-role.js') : undefined,
  ]);
  await workerRole?.prepareWorkerRole(logger);
  const connections = await openConnections(config, logger, options.dependencyWaitMs);
  // Before anything that serves: the HTTP app mounts its span middleware only in a traced process.
  const tracing = await startTracing({ config, roles, version: packageVersion(), logger });
  const stops = new Stops(logger);
  // First in, so last out: the spans of the shutdown itself are flushed too.
  stops.push(() => tracing.shutdown(), () => connections.close());

  // Before the roles: each registers its series on this process registry as it starts.
  const metrics = await createMetrics();
  try {
    const shared = await startSharedServices({ config, logger, connections, migrateFirst: options.migrateFirst ?? false }, stops);
    const { settings, reviews, accounts } = shared;
    if (workerRole) {
      await workerRole.checkTemporalNamespace(connections, config);
      startHousekeeping({ logger, connections, settings, accounts }, stops);
    }
    // Providers are registered here, before any role uses them (the livestream provider too).
    const media = await setUpMedia({ config, logger, connections, accounts, metrics }, stops);
    // Before the actor host (its first probes) and the gateway (its first plays) ask for it.
    const transcoder = transcoderRole ? await transcoderRole.startTranscoderRole({ config, logger, connections, media, metrics, settings }, stops) : undefined;

    let host: ActorHost | undefined;
    if (actorsRole) {
      host = await actorsRole.startActorsRole({ config, logger, connections, settings, reviews, media, metrics, withWorker: roles.includes('worker') }, stops);
    }
    if (workerRole) await workerRole.startWorkerRole({ config, logger, connections, accounts, reviews, metrics }, stops);

    const readiness = createDependencyProbe({
      pool: connections.pool,
      redis: connections.redis,
      nats: connections.nats,
      temporal: connections.temporal,
      pendingMigrations: () => pendingMigrations(connections.pool),
      ...(transcoder ? { details: () => ({ transcoder: transcoder.details() }) } : {}),
    });
    let gateway: GatewayRole | undefined;
    if (gatewayRole) gateway = await gatewayRole.startGatewayRole({ config, logger, connections, shared, media, metrics, readiness, ...(options.webClientRoot ? { webClientRoot: options.webClientRoot } : {}) }, stops);
    const sliceCache = gateway?.sliceCache;

    const operators = await startOperatorEndpoints(
      {
        config,
        logger,
        shared,
        metrics,
        readiness,
        stats: () =>
          collectSystemStats({
            replicaId: config.replica_id,
            roles,
            startedAt,
            readiness,
            connectedClients: () => gateway?.connectedClients() ?? 0,
            activeActors: () => host?.activeCount() ?? 0,
            ...(sliceCache ? { sliceCache: () => sliceCache.stats() } : {}),
          }),
      },
      stops,
    );

    return {
      ...(gateway ? { httpUrl: gateway.httpUrl, grpcAddress: gateway.grpcAddress } : {}),
      ...(operators.metricsUrl ? { metricsUrl: operators.metricsUrl } : {}),
      ...(gateway?.stunPort !== undefined ? { stunPort: gateway.stunPort } : {}),
      managementAddress: operators.managementAddress,
      settings,
      ...(sliceCache ? { sliceCache } : {}),
      stop: () => stops.stopAll(),
    };
  } catch (err) {
    await stops.stopAll();
    throw err;
  }
}
