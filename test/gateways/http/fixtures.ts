import { once } from 'node:events';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Koa from 'koa';
import { pino, type Logger } from 'pino';
import { defaultConfig } from '../../../config/defaults.js';
import { createHttpApp } from '../../../gateways/http/app.js';
import { createMetricsApp } from '../../../gateways/http/metrics-listener.js';
import type { HttpState } from '../../../gateways/http/state.js';
import { createMetrics } from '../../../observability/metrics.js';
import type { DependencyState, ReadinessProbe } from '../../../observability/readiness.js';
import { requestListener } from '../../../gateways/http/request-listener.js';

export { waitFor } from '../../fixtures/deadline.js';

export const ALLOWED_ORIGIN = 'https://watch.example.com';

/** A pino logger whose lines are kept in memory, parsed, for assertions on what was logged. */
export function capturingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { logger, lines };
}

/** A probe reporting a fixed state, for tests about the HTTP surface rather than the dependencies. */
export function fixedProbe(states: DependencyState[]): ReadinessProbe {
  return { check: () => Promise.resolve(states.map((state) => ({ ...state }))) };
}

export interface TestApp {
  app: Koa<HttpState>;
  lines: Array<Record<string, unknown>>;
  /** Starts listening on a free port; call after mounting any test routes. */
  listen(): Promise<string>;
  /** Starts the metrics listener's app (`/metrics`, detailed `/health/ready`) on a free port. */
  listenMetrics(): Promise<string>;
  close(): Promise<void>;
}

export function buildApp(options: { readiness?: ReadinessProbe; corsAllowedOrigins?: string[] } = {}): TestApp {
  const { logger, lines } = capturingLogger();
  const metrics = createMetrics();
  const readiness = options.readiness ?? fixedProbe([{ name: 'postgres', ok: true, latencyMs: 1 }]);
  const app = createHttpApp({
    config: { server: { ...defaultConfig().server, host: '127.0.0.1', port: 0, public_url: '', advertise_url: '', trust_proxy: false, trusted_proxies: [], cors_allowed_origins: options.corsAllowedOrigins ?? [ALLOWED_ORIGIN] } },
    logger,
    readiness,
    metrics: metrics.http,
  });
  const servers: Server[] = [];
  const serve = async (listener: RequestListener): Promise<string> => {
    const server = createServer(listener);
    servers.push(server);
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  return {
    app,
    lines,
    listen: () => serve(requestListener(app)),
    listenMetrics: () => serve(requestListener(createMetricsApp(metrics.registry, readiness, logger))),
    async close() {
      await Promise.all(
        servers.map(async (server) => {
          server.closeAllConnections();
          server.close();
          await once(server, 'close');
        }),
      );
    },
  };
}

