/** Counters of the media proxy on `/metrics`: bytes sent to clients, upstream failures by code. */
import { Counter, type Registry } from 'prom-client';
import type { ProxyTraffic } from '../../media/index.js';

export function proxyTraffic(registry: Registry): ProxyTraffic {
  const bytes =
    (registry.getSingleMetric('media_proxy_bytes_total') as Counter | undefined) ??
    new Counter({ name: 'media_proxy_bytes_total', help: 'Media bytes the proxy sent to clients.', registers: [registry] });
  const errors =
    (registry.getSingleMetric('media_proxy_upstream_errors_total') as Counter<'code'> | undefined) ??
    new Counter({
      name: 'media_proxy_upstream_errors_total',
      help: 'Upstream reads of the media proxy that failed, by error code (bad_gateway, deadline_exceeded, forbidden, http_<status>).',
      labelNames: ['code'],
      registers: [registry],
    });
  return {
    bytes: (count) => bytes.inc(count),
    upstreamError: (code) => errors.inc({ code }),
  };
}
