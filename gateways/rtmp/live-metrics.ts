/** The livestream series of a gateway: streams on air here (published over RTMP or pulled) and their HTTP-FLV viewers. */
import { Gauge, type Registry } from 'prom-client';

export interface LiveCounts {
  stats(): { streams: number; viewers: number };
}

export function liveMetrics(registry: Registry, sources: Array<() => LiveCounts | undefined>): void {
  const total = (field: 'streams' | 'viewers'): number => sources.reduce((sum, source) => sum + (source()?.stats()[field] ?? 0), 0);
  new Gauge({
    name: 'svc_live_streams',
    help: 'Livestreams on air from this gateway: published to it over RTMP or pulled by it from a URL.',
    registers: [registry],
    collect() {
      this.set(total('streams'));
    },
  });
  new Gauge({
    name: 'svc_live_viewers',
    help: 'HTTP-FLV players attached to the livestreams of this gateway (HLS players fetch segments as plain HTTP requests, counted in http_requests_total).',
    registers: [registry],
    collect() {
      this.set(total('viewers'));
    },
  });
}
