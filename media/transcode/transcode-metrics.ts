/**
 * The transcoder's series (transcoder.ts): encoders running against the limit, reads waiting
 * for an encoder, how fast the encoders run (a multiple of real time: below 1 a viewer waits),
 * segment reads by outcome (hit: on disk already, the segment cache; made: waited for the
 * encoder; refused: resource_exhausted), the bytes served and those the cache holds. A dashboard
 * sees the pool fill up, or fall behind real time, before viewers see a spinner.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { SegmentStore } from './segment-store.js';
import type { Transcoder, TranscoderObserver } from './transcoder.js';

export interface TranscodeMeter extends TranscoderObserver {
  /** One encoder's speed, as ffmpeg's progress reports it. */
  speed(multiple: number): void;
}

export function transcodeMetrics(registry: Registry, transcoder: () => Transcoder | undefined, store: SegmentStore, limit: number): TranscodeMeter {
  new Gauge({
    name: 'svc_transcode_encodes_running',
    help: 'Encoders (ffmpeg) of the shared transcode running now.',
    registers: [registry],
    collect() {
      this.set(transcoder()?.running ?? 0);
    },
  });
  new Gauge({ name: 'svc_transcode_encodes_limit', help: 'transcoder.max_encodes of this process.', registers: [registry] }).set(limit);
  new Gauge({
    name: 'svc_transcode_queue',
    help: 'Segment reads waiting for an encoder to reach them.',
    registers: [registry],
    collect() {
      this.set(transcoder()?.queued ?? 0);
    },
  });
  const speed = new Gauge({
    name: 'svc_transcode_speed',
    help: 'The last reported speed of an encoder, as a multiple of real time (below 1: viewers wait).',
    registers: [registry],
  });
  // The store counts hits and misses as segments are handed out; the counter catches up at each scrape.
  const seen = { hit: 0, made: 0 };
  const reads = new Counter<'outcome'>({
    name: 'svc_transcode_segment_reads_total',
    help: 'Reads of transcoded segments: hit (on disk already: the segment cache), made (waited for the encoder), refused (all encoders busy).',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      const { hits, misses } = store.stats();
      this.inc({ outcome: 'hit' }, hits - seen.hit);
      this.inc({ outcome: 'made' }, misses - seen.made);
      seen.hit = hits;
      seen.made = misses;
    },
  });
  new Gauge({
    name: 'svc_transcode_cache_bytes',
    help: 'Bytes of segments the transcoder keeps on disk (at most transcoder.cache_mb).',
    registers: [registry],
    collect() {
      this.set(store.stats().bytes);
    },
  });
  const bytes = new Counter({ name: 'svc_transcode_bytes_total', help: 'Bytes of transcoded segments served to gateways.', registers: [registry] });
  for (const outcome of ['hit', 'made', 'refused']) reads.inc({ outcome }, 0);
  return {
    refused: () => reads.inc({ outcome: 'refused' }),
    bytes: (count) => bytes.inc(count),
    speed: (multiple) => speed.set(multiple),
  };
}
