/**
 * The operators' HTTP listener (`metrics.listen`, off by default): Prometheus metrics on
 * `/metrics` and the detailed readiness on `/health/ready`, which the public port no longer
 * serves (they name dependencies, their hosts and errors, and internal counts). No auth: it is
 * meant for a loopback or cluster-internal address that only the scraper reaches, so
 * Prometheus needs no token. Decisions: docs/2026-11-26-edge-hardening.md.
 */
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Registry } from 'prom-client';
import { AppError } from '../../errors/index.js';
import { parseListenAddress } from '../../net/index.js';
import type { Logger } from '../../observability/index.js';
import type { ReadinessProbe } from '../../observability/index.js';
import { errorResponses } from './errors.js';
import { detailedReadinessRoutes } from './health.js';
import { metricsRoutes } from './metrics.js';
import { requestId } from '../request-id.js';
import type { HttpState } from './state.js';
import { httpServer } from './request-listener.js';

export const METRICS_LISTEN_KEY = 'metrics.listen';

export interface MetricsListener {
  /** `http://host:port`, the port as bound. */
  url: string;
  close(): Promise<void>;
}

export function createMetricsApp(registry: Registry, readiness: ReadinessProbe, logger: Logger): Koa<HttpState> {
  const app = new Koa<HttpState>();
  app.on('error', (err: unknown) => logger.error({ err }, 'unhandled error in the metrics listener'));
  app.use(requestId(logger));
  app.use(errorResponses());
  for (const router of [metricsRoutes(registry), detailedReadinessRoutes(readiness)]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}

export async function startMetricsListener(address: string, registry: Registry, readiness: ReadinessProbe, logger: Logger): Promise<MetricsListener> {
  const parsed = parseListenAddress(address);
  if (!parsed) throw AppError.invalid([{ key: METRICS_LISTEN_KEY, message: `"${address}" must be host:port, such as 127.0.0.1:9464` }]);
  const server = httpServer(createMetricsApp(registry, readiness, logger));
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(err.code === 'EADDRINUSE' ? new AppError('unavailable', `${METRICS_LISTEN_KEY} ${address} is already in use`) : err),
    );
    server.listen(parsed.port, parsed.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = parsed.host.includes(':') ? `[${parsed.host}]` : parsed.host;
  const url = `http://${host}:${port}`;
  logger.info({ metrics: `${url}/metrics` }, 'metrics listener listening');
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
