import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Labels of the HTTP request series. `route` is a route template, never a raw path. */
export type HttpMetricLabel = 'method' | 'route' | 'status';

export interface HttpMetrics {
  /** The registry these series live in; the HTTP gateway serves it on `/metrics`. */
  registry: Registry;
  requests: Counter<HttpMetricLabel>;
  duration: Histogram<HttpMetricLabel>;
}

/**
 * The metrics of one process. Each call builds its own registry instead of using
 * prom-client's global one, so tests can build several apps in one process without
 * "metric already registered" clashes. Other parts register their gauges on `registry`.
 */
export interface Metrics {
  registry: Registry;
  http: HttpMetrics;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Counter<HttpMetricLabel>({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, matched route template and status.',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new Histogram<HttpMetricLabel>({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request until its response was finished or aborted.',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  });

  return { registry, http: { registry, requests, duration } };
}
