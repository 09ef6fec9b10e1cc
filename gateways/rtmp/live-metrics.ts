/** The livestream series of a gateway with `rtmp.enabled`: streams on air here and their HTTP-FLV viewers. */
import { Gauge, type Registry } from 'prom-client';

export interface LiveCounts {
  stats(): { streams: number; viewers: number };
}

export function liveMetrics(registry: Registry, ingest: () => LiveCounts | undefined): void {
  new Gauge({
    name: 'svc_live_streams',
    help: 'Livestreams published over RTMP to this gateway and on air.',
    registers: [registry],
    collect() {
      this.set(ingest()?.stats().streams ?? 0);
    },
  });
  new Gauge({
    name: 'svc_live_viewers',
    help: 'HTTP-FLV players attached to the livestreams of this gateway (HLS players fetch segments as plain HTTP requests, counted in http_requests_total).',
    registers: [registry],
    collect() {
      this.set(ingest()?.stats().viewers ?? 0);
    },
  });
}
