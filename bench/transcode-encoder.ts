/**
 * Transcode encoder speed (issue 40): how many times real time one rung's ffmpeg runs on this
 * machine, from its `-progress` speed, for the two cases that cost the most per item:
 *   - HEVC 10-bit 1080p + E-AC3 5.1 converted to H.264 720p + AAC stereo (target ≥ 1.2×);
 *   - H.264 1080p + AC3 5.1 with the video copied and only the audio converted.
 * The media (30 s, made by test/media/transcode/fixtures.ts) is read over loopback HTTP, as
 * the media proxy is; the encoder is the one `detectH264Encoder` picks (libx264 without a GPU,
 * its preset for BENCH_TRANSCODE_CORES or the machine's cores). Prints the median and the last
 * speed ffmpeg reported, and media seconds over wall seconds for the whole run.
 * Build, then `node dist/bench/transcode-encoder.js`.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLogger } from '../observability/index.js';
import { planRung, type TranscodeSource } from '../media/transcode/encode-plan.js';
import { detectH264Encoder, hasZscale, type H264Encoder } from '../media/transcode/hw-encoders.js';
import { RungEncoder } from '../media/transcode/rung-encoder.js';
import { SegmentStore } from '../media/transcode/segment-store.js';
import { fixture, type FixtureName } from '../test/media/transcode/fixtures.js';
import { serveFiles } from '../test/media/transcode/range-server.js';
import { median } from './percentile.js';

export interface EncoderSpeed {
  case: string;
  encoder: string;
  /** ffmpeg's `speed` from -progress, median and last (× real time). */
  medianSpeed: number;
  lastSpeed: number;
  /** Media seconds made over wall seconds, for the whole run (includes start-up). */
  wallSpeed: number;
}

const SECONDS = 30;

async function measure(name: FixtureName, label: string, treatment: 'copy' | 'convert', height: number | undefined, encoder: H264Encoder, zscale: boolean): Promise<EncoderSpeed> {
  const path = await fixture(name, { width: 1920, height: 1080, seconds: SECONDS });
  const server = await serveFiles([path]);
  const root = await mkdtemp(join(tmpdir(), 'svc-bench-transcode-'));
  const store = new SegmentStore({ root, maxBytes: 1024 ** 3 });
  const source: TranscodeSource = {
    url: server.url(path),
    container: 'matroska',
    reach: { durationSeconds: SECONDS, videoStream: 0, audioStream: 1, videoTreatment: treatment, audioTreatment: 'convert', height: 1080 },
    facts: { width: 1920, height: 1080, frameRate: 25, profile: 'High', level: 40 },
  };
  const plan = planRung(source, height ? { height } : {});
  const rung = new RungEncoder({ plan, shelf: await store.shelf('bench'), encoder, zscale, logger: createLogger({ level: 'silent' }), aheadSegments: plan.segmentCount });
  const speeds: number[] = [];
  rung.on('progress', ({ speed }) => speeds.push(speed));
  const started = performance.now();
  try {
    // Asking for the last segment first would be a seek; asking in order keeps one run from 0.
    for (let n = 0; n < plan.segmentCount; n += 1) await rung.segment(n);
    const wallSeconds = (performance.now() - started) / 1000;
    return {
      case: label,
      encoder: plan.video?.treatment === 'convert' ? encoder.label : 'video copied',
      medianSpeed: speeds.length ? median(speeds) : Number.NaN,
      lastSpeed: speeds.at(-1) ?? Number.NaN,
      wallSpeed: SECONDS / wallSeconds,
    };
  } finally {
    await rung.close();
    await server.close();
    await rm(root, { recursive: true, force: true });
  }
}

export async function benchTranscodeEncoder(): Promise<EncoderSpeed[]> {
  const cores = Number(process.env.BENCH_TRANSCODE_CORES) || availableParallelism();
  const [encoder, zscale] = await Promise.all([detectH264Encoder({ cores }), hasZscale()]);
  return [
    await measure('hevc10-eac3-mkv', 'HEVC 10-bit 1080p + E-AC3 → H.264 720p + AAC', 'convert', 720, encoder, zscale),
    await measure('h264-ac3-mkv', 'H.264 1080p + AC3 → video copied + AAC', 'copy', undefined, encoder, zscale),
  ];
}

export function printTranscodeEncoder(figures: EncoderSpeed[]): void {
  const x = (value: number) => `${value.toFixed(2)}×`;
  console.log(`transcode encoder speed (× real time, ${SECONDS} s of media over loopback HTTP):`);
  for (const figure of figures) {
    console.log(`  ${figure.case} [${figure.encoder}]: median ${x(figure.medianSpeed)}, last ${x(figure.lastSpeed)}, wall ${x(figure.wallSpeed)}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printTranscodeEncoder(await benchTranscodeEncoder());
  process.exit(0);
}
