/**
 * The transcoder's series (transcoder.ts): encoders running against the limit, reads waiting
 * for an encoder, how fast the encoders run (a multiple of real time: below 1 a viewer waits),
 * segment reads by outcome (hit: already on disk; made: waited for the encoder; refused:
 * resource_exhausted) and the bytes served. A dashboard sees the pool fill up, or fall behind
 * real time, before viewers see a spinner.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Transcoder, TranscoderObserver } from './transcoder.js';

const OUTCOMES = ['hit', 'made', 'refused'] as const;

export interface TranscodeMeter extends TranscoderObserver {
  /** One encoder's speed, as ffmpeg's progress reports it. */
  speed(multiple: number): void;
}

export function transcodeMetrics(registry: Registry, transcoder: () => Transcoder | undefined, limit: number): TranscodeMeter {
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
  const reads = new Counter<'outcome'>({
    name: 'svc_transcode_segment_reads_total',
    help: 'Reads of transcoded segments: hit (on disk already: the cache), made (waited for the encoder), refused (all encoders busy).',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const bytes = new Counter({ name: 'svc_transcode_bytes_total', help: 'Bytes of transcoded segments served to gateways.', registers: [registry] });
  for (const outcome of OUTCOMES) reads.inc({ outcome }, 0);
  return {
    read: (outcome) => reads.inc({ outcome }),
    bytes: (count) => bytes.inc(count),
    speed: (multiple) => speed.set(multiple),
  };
}
