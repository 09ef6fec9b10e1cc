/**
 * Media for the transcode tests, made with ffmpeg from lavfi sources (testsrc2 + a sine) at
 * 25 fps with a keyframe every 2 s, cached per name and options for the test process. A
 * teammate's fuller version (more names: PGS subtitles, AVI, ...) replaces this file; tests
 * call only `fixture(...)`.
 *
 * - h264-ac3-mkv: H.264 (High) + AC3 5.1 in Matroska: what a remux copies and an audio
 *   conversion turns into AAC.
 * - hevc10-eac3-mkv: HEVC Main 10 + E-AC3 5.1 in Matroska: what is converted whole.
 */
import { execFile } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export type FixtureName = 'h264-ac3-mkv' | 'hevc10-eac3-mkv';

export interface FixtureOptions {
  seconds?: number;
  width?: number;
  height?: number;
}

const FPS = 25;
const GOP_SECONDS = 2;

const made = new Map<string, Promise<string>>();
let folder: Promise<string> | undefined;

const VIDEO: Record<FixtureName, string[]> = {
  'h264-ac3-mkv': ['-c:v', 'libx264', '-preset', 'veryfast', '-profile:v', 'high', '-pix_fmt', 'yuv420p', '-g', String(FPS * GOP_SECONDS), '-keyint_min', String(FPS * GOP_SECONDS), '-sc_threshold', '0', '-c:a', 'ac3', '-b:a', '192k'],
  'hevc10-eac3-mkv': ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-x265-params', `keyint=${FPS * GOP_SECONDS}:min-keyint=${FPS * GOP_SECONDS}:scenecut=0:log-level=error`, '-c:a', 'eac3', '-b:a', '192k'],
};

/** The path of fixture `name` (made on first use). */
export function fixture(name: FixtureName, options: FixtureOptions = {}): Promise<string> {
  const seconds = options.seconds ?? 20;
  const width = options.width ?? 640;
  const height = options.height ?? 360;
  if (!(name in VIDEO)) return Promise.reject(new Error(`no fixture named ${name} here`));
  const key = `${name}-${width}x${height}-${seconds}s`;
  let file = made.get(key);
  if (!file) {
    file = (async () => {
      folder ??= mkdtemp(join(tmpdir(), 'svc-transcode-fixtures-'));
      const path = join(await folder, `${key}.mkv`);
      await run('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${seconds}`],
        ...['-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=48000:duration=${seconds}`],
        ...['-filter_complex', '[1:a]pan=5.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0[a]', '-map', '0:v', '-map', '[a]'],
        ...VIDEO[name],
        path,
      ]);
      return path;
    })();
    made.set(key, file);
  }
  return file;
}
