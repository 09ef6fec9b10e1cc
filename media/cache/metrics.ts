/**
 * The slice cache's counts, kept for `svc system stats` and, when a registry is given, as
 * Prometheus series on the process registry served at `/metrics`.
 *   hits / misses: slice reads by a client request that found the slice on disk / had to wait
 *     for the upstream (a reader joining another's fetch is a miss too);
 *   bytes{source}: bytes sent to clients from slices that were hits ("cache"), and bytes
 *     fetched from the upstream into slices ("upstream", once per fetch however many wait);
 *   evictions: slices deleted to stay within the size (not those dropped because the
 *     resource changed); revalidations: conditional requests sent for stale metadata;
 *   readaheads: slices fetched ahead of a sequential reader (readahead.ts), from the
 *     upstream or, when cached, from disk into memory.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SliceCacheStats } from './types.js';

export type SliceCounts = Pick<SliceCacheStats, 'hits' | 'misses' | 'bytesFromCache' | 'bytesFromUpstream' | 'evictions' | 'revalidations' | 'readaheads'>;

export interface SliceGauges {
  entries(): number;
  sizeBytes(): number;
  maxBytes: number;
}

export class SliceCacheMeter {
  readonly counts: SliceCounts = { hits: 0, misses: 0, bytesFromCache: 0, bytesFromUpstream: 0, evictions: 0, revalidations: 0, readaheads: 0 };
  private readonly series: ReturnType<typeof createSeries> | undefined;

  constructor(registry: Registry | undefined, gauges: SliceGauges) {
    this.series = registry ? createSeries(registry, gauges) : undefined;
  }

  hit(bytes: number): void {
    this.counts.hits += 1;
    this.counts.bytesFromCache += bytes;
    this.series?.hits.inc();
    this.series?.bytes.inc({ source: 'cache' }, bytes);
  }

  miss(): void {
    this.counts.misses += 1;
    this.series?.misses.inc();
  }

  fetched(bytes: number): void {
    this.counts.bytesFromUpstream += bytes;
    this.series?.bytes.inc({ source: 'upstream' }, bytes);
  }

  evicted(slices: number): void {
    this.counts.evictions += slices;
    this.series?.evictions.inc(slices);
  }

  readahead(): void {
    this.counts.readaheads += 1;
    this.series?.readaheads.inc();
  }

  revalidated(): void {
    this.counts.revalidations += 1;
    this.series?.revalidations.inc();
  }
}

function createSeries(registry: Registry, gauges: SliceGauges) {
  new Gauge({
    name: 'svc_slice_cache_size_bytes',
    help: 'Bytes of media slices held on disk by the slice cache.',
    registers: [registry],
    collect() {
      this.set(gauges.sizeBytes());
    },
  });
  new Gauge({
    name: 'svc_slice_cache_entries',
    help: 'Media slices held on disk by the slice cache.',
    registers: [registry],
    collect() {
      this.set(gauges.entries());
    },
  });
  new Gauge({
    name: 'svc_slice_cache_max_bytes',
    help: 'Configured size of the slice cache (proxy_slice_cache.size_mb).',
    registers: [registry],
    collect() {
      this.set(gauges.maxBytes);
    },
  });
  const bytes = new Counter<'source'>({
    name: 'svc_slice_cache_bytes_total',
    help: 'Bytes sent to clients from cached slices (source="cache") and fetched from upstreams into slices (source="upstream").',
    labelNames: ['source'],
    registers: [registry],
  });
  // Both label values exist from the start, so a dashboard sees 0 rather than no series.
  bytes.inc({ source: 'cache' }, 0);
  bytes.inc({ source: 'upstream' }, 0);
  return {
    hits: new Counter({ name: 'svc_slice_cache_hits_total', help: 'Slice reads answered from disk.', registers: [registry] }),
    misses: new Counter({ name: 'svc_slice_cache_misses_total', help: 'Slice reads that waited for the upstream.', registers: [registry] }),
    bytes,
    evictions: new Counter({ name: 'svc_slice_cache_evictions_total', help: 'Slices deleted to keep the cache within its size.', registers: [registry] }),
    revalidations: new Counter({
      name: 'svc_slice_cache_revalidations_total',
      help: 'Conditional upstream requests sent because cached metadata was older than the revalidation interval.',
      registers: [registry],
    }),
    readaheads: new Counter({
      name: 'svc_slice_cache_readahead_total',
      help: 'Slice fetches started ahead of a sequential reader (readers that join them count as misses, later reads of them as hits).',
      registers: [registry],
    }),
  };
}
