/**
 * What operators reach on every replica, whatever its roles: the metrics listener (Prometheus
 * `/metrics` and the detailed `/health/ready`, when `metrics.listen` is set) and the management
 * endpoint the `svc` CLI talks to.
 */
import { resolveManagementEndpoint, type StartupConfig } from '../config/index.js';
import type { SystemStats } from '../contracts/management.js';
// Their own light entries, not gateways/index.ts: every role serves these, and the whole gateway
// (its HTTP app, sockets and gRPC) is half a second of loading an actor host or worker never uses.
import { startManagementServer } from '../gateways/management/server.js';
import { startMetricsListener } from '../gateways/http/metrics-listener.js';
import type { Logger, Metrics, ReadinessProbe } from '../observability/index.js';
import type { SharedServices } from './shared-services.js';
import type { Stops } from './stops.js';

export interface OperatorEndpointsStart {
  config: StartupConfig;
  logger: Logger;
  shared: SharedServices;
  metrics: Metrics;
  readiness: ReadinessProbe;
  stats: () => Promise<SystemStats>;
}

export interface OperatorEndpoints {
  metricsUrl?: string;
  managementAddress: string;
}

export async function startOperatorEndpoints(start: OperatorEndpointsStart, stops: Stops): Promise<OperatorEndpoints> {
  const { config, logger } = start;
  let metricsUrl: string | undefined;
  if (config.metrics.listen !== '') {
    const listener = await startMetricsListener(config.metrics.listen, start.metrics.registry, start.readiness, logger);
    metricsUrl = listener.url;
    stops.push(() => listener.close());
  }
  const management = await startManagementServer(resolveManagementEndpoint(config), {
    logger,
    settings: start.shared.settings,
    reviews: start.shared.reviews,
    accounts: start.shared.accounts,
    replicaId: config.replica_id,
    stats: start.stats,
  });
  stops.push(() => management.close());
  return { ...(metricsUrl ? { metricsUrl } : {}), managementAddress: management.address };
}
