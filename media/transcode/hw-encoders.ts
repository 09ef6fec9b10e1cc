/**
 * Which H.264 encoder the transcodes of this process use, decided once at start: a hardware
 * encoder when one works on this machine (VAAPI through a /dev/dri render node, NVENC, Quick
 * Sync), else libx264. "Works" means a one-frame test encode succeeds within a deadline: an
 * encoder ffmpeg was built with can still fail for want of a device, a driver or a licence slot,
 * and finding that out on a viewer's first segment would be too late.
 *
 * libx264's preset is picked for real time on the cores the transcodes may use
 * (`cores`, by default the machine's). Measured on 2 cores shared with other work (load 5-6),
 * HEVC 10-bit 1080p (testsrc2, 25 fps) → 720p at 2.8 Mbit/s plus AAC: veryfast 1.36× to 3.4×,
 * superfast 2.6× to 3.7× (bench/transcode-encoder.ts), superfast with HDR tone mapping 2.1×;
 * ultrafast 4.0×. A test pattern is easy on the encoder and films are not, and the decoder,
 * the scaler, the audio and other rungs share those cores, so 2 cores get superfast; each
 * doubling of the cores buys one slower (better) preset.
 */
import { existsSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { runTool } from '../tools/run-tool.js';

export type H264EncoderName = 'libx264' | 'h264_vaapi' | 'h264_nvenc' | 'h264_qsv';

/** How one encoder is wired into an ffmpeg run (media/transcode/encoder-args.ts). */
export interface H264Encoder {
  name: H264EncoderName;
  /** For the log and the readiness detail: "libx264 (superfast, 2 threads)", "h264_vaapi (/dev/dri/renderD128)". */
  label: string;
  /** Global options before the input (a hardware device). */
  globalArgs: string[];
  /** Appended to the video filter chain, after scaling, to hand frames to the encoder ("format=nv12,hwupload"). */
  filterTail: string;
  /** The codec options (without bitrate and keyframe options, which the plan sets). */
  codecArgs: string[];
}

export interface DetectOptions {
  /** Cores the transcodes may use: libx264's preset and threads follow it (default: the machine's). */
  cores?: number;
  /** Deadline of each one-frame test encode. */
  testTimeoutMs?: number;
}

const TEST_TIMEOUT_MS = 10_000;
const DRI = '/dev/dri';

/** libx264 presets from the fewest cores up: each doubling of the cores takes one step slower. */
const X264_PRESETS = ['superfast', 'veryfast', 'faster', 'fast'] as const;

/** libx264 with the preset for `cores`. */
export function softwareEncoder(cores: number): H264Encoder {
  const step = Math.max(0, Math.min(X264_PRESETS.length - 1, Math.floor(Math.log2(Math.max(1, cores) / 2))));
  const preset = X264_PRESETS[step] ?? 'superfast';
  return {
    name: 'libx264',
    label: `libx264 (${preset}, ${cores} threads)`,
    globalArgs: [],
    filterTail: 'format=yuv420p',
    codecArgs: ['-c:v', 'libx264', '-preset', preset, '-threads', String(cores), '-profile:v', 'high'],
  };
}

/** The hardware encoders worth a test on this machine, in order of preference. */
function hardwareCandidates(): H264Encoder[] {
  const candidates: H264Encoder[] = [];
  const renderNode = existsSync(DRI) ? readdirSync(DRI).find((name) => name.startsWith('renderD')) : undefined;
  if (renderNode) {
    const device = join(DRI, renderNode);
    candidates.push({
      name: 'h264_vaapi',
      label: `h264_vaapi (${device})`,
      globalArgs: ['-vaapi_device', device],
      filterTail: 'format=nv12,hwupload',
      codecArgs: ['-c:v', 'h264_vaapi', '-profile:v', 'high'],
    });
  }
  // Each test encode is an ffmpeg start: only where the device it needs exists (every replica
  // with the transcoder role runs this at start, tests included).
  if (existsSync('/dev/nvidiactl')) {
    candidates.push({ name: 'h264_nvenc', label: 'h264_nvenc', globalArgs: [], filterTail: 'format=yuv420p', codecArgs: ['-c:v', 'h264_nvenc', '-preset', 'p4', '-profile:v', 'high'] });
  }
  if (renderNode) {
    candidates.push({ name: 'h264_qsv', label: 'h264_qsv', globalArgs: [], filterTail: 'format=nv12', codecArgs: ['-c:v', 'h264_qsv', '-preset', 'medium', '-profile:v', 'high'] });
  }
  return candidates;
}

/** Whether `encoder` encodes one frame of a test pattern here, within the deadline. */
async function encodesOneFrame(encoder: H264Encoder, timeoutMs: number): Promise<boolean> {
  const args = [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    ...encoder.globalArgs,
    '-f', 'lavfi', '-i', 'testsrc2=size=256x144:rate=25',
    '-frames:v', '1', '-vf', encoder.filterTail,
    ...encoder.codecArgs,
    '-f', 'null', '-',
  ];
  try {
    const result = await runTool('ffmpeg', args, { timeoutMs, maxBytes: 64 * 1024, what: `the ${encoder.name} test encode` });
    return result.code === 0;
  } catch {
    return false;
  }
}

/** Whether this ffmpeg has the zscale filter (libzimg), which tone-maps HDR sources: Debian's has. */
export async function hasZscale(timeoutMs = TEST_TIMEOUT_MS): Promise<boolean> {
  try {
    const result = await runTool('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-h', 'filter=zscale'], { timeoutMs, maxBytes: 256 * 1024, what: 'the list of ffmpeg filters' });
    return result.code === 0 && result.stdout.toString('utf8').includes('Filter zscale');
  } catch {
    return false;
  }
}

/** The encoder the transcodes use: the first hardware encoder that works, else libx264 for `cores`. */
export async function detectH264Encoder(options: DetectOptions = {}): Promise<H264Encoder> {
  const timeoutMs = options.testTimeoutMs ?? TEST_TIMEOUT_MS;
  for (const candidate of hardwareCandidates()) {
    if (await encodesOneFrame(candidate, timeoutMs)) return candidate;
  }
  return softwareEncoder(options.cores ?? availableParallelism());
}
