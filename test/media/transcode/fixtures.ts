/**
 * Media files for the "everything plays" tests (issue 40): one per way an item reaches
 * browsers, made with Debian's ffmpeg from lavfi sources (testsrc2's moving picture, a sine
 * tone) at 25 fps with a keyframe every 2 s (50 frames, no scene-cut keyframes), which the
 * transcoder's tests rely on to cut segments where keyframes are. Each is made once per name
 * and options into a cache folder (`SVCTEST_FIXTURES_DIR`, else ~/.cache/svc/fixtures): written
 * under a temporary name and renamed, so test processes running at once never read half a
 * file, and a second ask is a stat. Bump `VERSION` when a recipe changes.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { countingSrt } from '../subtitles/fixtures.js';
import { pgsSup } from './pgs-sup.js';

const run = promisify(execFile);

export type FixtureName = 'h264-aac-mp4' | 'h264-ac3-mkv' | 'hevc10-eac3-mkv' | 'h264-dts-mkv' | 'mpeg4-mp3-avi' | 'h264-mp2-ts' | 'h264-aac-pgs-srt-mkv';

export interface FixtureOptions {
  seconds?: number;
  width?: number;
  height?: number;
}

const VERSION = 2;
const FPS = 25;
const GOP = 2 * FPS;
/** The PGS fixture's captions (its SRT has a cue every 2 s: test/media/subtitles/fixtures.ts). */
export const PGS_CAPTIONS = [
  { startSeconds: 1, endSeconds: 4 },
  { startSeconds: 5, endSeconds: 8 },
];

interface Recipe {
  extension: string;
  /** ffmpeg's muxer. */
  format: string;
  video: string[];
  audio: string[];
  /** 5.1 audio (what AC3, E-AC3 and DTS usually carry), else stereo. */
  surround?: boolean;
}

const x264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-g', String(GOP), '-keyint_min', String(GOP), '-sc_threshold', '0', '-b:v', '600k'];

const RECIPES: Record<FixtureName, Recipe> = {
  'h264-aac-mp4': { extension: 'mp4', format: 'mp4', video: x264, audio: ['-c:a', 'aac', '-b:a', '96k'] },
  'h264-ac3-mkv': { extension: 'mkv', format: 'matroska', video: x264, audio: ['-c:a', 'ac3', '-b:a', '384k'], surround: true },
  'hevc10-eac3-mkv': {
    extension: 'mkv',
    format: 'matroska',
    video: ['-c:v', 'libx265', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p10le', '-profile:v', 'main10', '-x265-params', `keyint=${GOP}:min-keyint=${GOP}:scenecut=0:log-level=error`, '-b:v', '600k'],
    audio: ['-c:a', 'eac3', '-b:a', '384k'],
    surround: true,
  },
  // ffmpeg's DTS encoder is still marked experimental.
  'h264-dts-mkv': { extension: 'mkv', format: 'matroska', video: x264, audio: ['-c:a', 'dca', '-strict', '-2', '-b:a', '768k'], surround: true },
  'mpeg4-mp3-avi': { extension: 'avi', format: 'avi', video: ['-c:v', 'mpeg4', '-g', String(GOP), '-q:v', '5'], audio: ['-c:a', 'libmp3lame', '-b:a', '128k'] },
  'h264-mp2-ts': { extension: 'ts', format: 'mpegts', video: x264, audio: ['-c:a', 'mp2', '-b:a', '192k'] },
  'h264-aac-pgs-srt-mkv': { extension: 'mkv', format: 'matroska', video: x264, audio: ['-c:a', 'aac', '-b:a', '96k'] },
};

function cacheDir(): string {
  return process.env.SVCTEST_FIXTURES_DIR ?? join(homedir(), '.cache', 'svc', 'fixtures');
}

async function exists(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The absolute path of fixture `name` (12 s of 640x360 unless `options` say otherwise), made if it is not there yet. */
export async function fixture(name: FixtureName, options: FixtureOptions = {}): Promise<string> {
  const { seconds = 12, width = 640, height = 360 } = options;
  const recipe = RECIPES[name];
  const dir = cacheDir();
  const path = join(dir, `${name}-${seconds}s-${width}x${height}-v${VERSION}.${recipe.extension}`);
  if (await exists(path)) return path;
  await mkdir(dir, { recursive: true });
  const temp = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  const sidecars: string[] = [];
  try {
    const inputs = [
      ...['-f', 'lavfi', '-i', `testsrc2=size=${width}x${height}:rate=${FPS}:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `sine=frequency=440:beep_factor=4:sample_rate=48000:duration=${seconds}`],
    ];
    const maps = ['-map', '0:v', '-map', '1:a'];
    const layout = recipe.surround ? '5.1(side)' : 'stereo';
    const subtitles: string[] = [];
    if (name === 'h264-aac-pgs-srt-mkv') {
      const sup = `${temp}.sup`;
      const srt = `${temp}.srt`;
      sidecars.push(sup, srt);
      await writeFile(sup, pgsSup({ width, height, captions: PGS_CAPTIONS }));
      await writeFile(srt, countingSrt('Text', seconds));
      inputs.push('-f', 'sup', '-i', sup, '-f', 'srt', '-i', srt);
      maps.push('-map', '2:s', '-map', '3:s');
      subtitles.push('-c:s', 'copy', '-metadata:s:s:0', 'language=eng', '-metadata:s:s:0', 'title=Signs', '-metadata:s:s:1', 'language=fre');
    }
    await run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-nostdin', '-y'],
      // The .sup's first caption is at 1 s: without -copyts ffmpeg would move it to 0.
      '-copyts',
      ...inputs,
      ...maps,
      ...recipe.video,
      ...['-af', `aformat=channel_layouts=${layout}`, ...recipe.audio],
      // Flagged as the default track, as Matroska and MP4 files usually are (AVI and MPEG-TS cannot say it).
      ...['-disposition:a:0', 'default'],
      ...subtitles,
      ...(recipe.format === 'mp4' ? ['-movflags', '+faststart'] : []),
      ...['-t', String(seconds), '-f', recipe.format, temp],
    ]);
    await rename(temp, path);
  } finally {
    await Promise.all([temp, ...sidecars].map((file) => rm(file, { force: true })));
  }
  return path;
}
