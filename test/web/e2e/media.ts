/**
 * Media for the player's end-to-end tests and `npm run bench:sync`: a test video made with
 * Debian's ffmpeg (VP8 + Opus WebM, which Chromium always plays: a visible clock and frame
 * counter from `testsrc2`, a keyframe every second so seeks land fast), the same picture as
 * an HLS video-on-demand and as an MPEG-DASH one, and a tiny `send` server on 127.0.0.1
 * serving with Range support.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import send from 'send';

const run = promisify(execFile);

export const TEST_VIDEO_SECONDS = 60;

export interface TestVideoOptions {
  seconds?: number;
  fps?: number;
  /** WIDTHxHEIGHT. */
  size?: string;
}

/**
 * Makes media into the folder `into` with `make`, once per `npm test` run for each `key` (what
 * the media is made of): the run's stack folder keeps what was made, and later asks copy it. The
 * browser files encoded the same clips over and over: ffmpeg took 9 % of the browser phase's
 * CPU on 2 cores. Without that folder (a benchmark, ava by hand) every ask makes its own.
 */
async function madeOnce(key: string, into: string, make: (folder: string) => Promise<void>): Promise<void> {
  const root = process.env.SVCTEST_STACK_DIR;
  if (!root) {
    await mkdir(into, { recursive: true });
    return make(into);
  }
  const kept = join(root, 'test-media', createHash('sha256').update(key).digest('hex').slice(0, 16));
  if (!existsSync(kept)) {
    await mkdir(join(root, 'test-media'), { recursive: true });
    const fresh = await mkdtemp(join(root, 'test-media', 'making-'));
    await make(fresh);
    // Another test file may have made it meanwhile: the first one kept stays.
    await rename(fresh, kept).catch(async (error: unknown) => {
      await rm(fresh, { recursive: true, force: true });
      if (!existsSync(kept)) throw error;
    });
  }
  await cp(kept, into, { recursive: true });
}

/** Writes a test WebM (default 60 s, 30 fps, 640x360) into a fresh temp folder; returns its folder and file name. */
export async function makeTestVideo({ seconds = TEST_VIDEO_SECONDS, fps = 30, size = '640x360' }: TestVideoOptions = {}): Promise<{ dir: string; file: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'svc-media-'));
  const file = 'clock.webm';
  await madeOnce(`webm ${seconds} ${fps} ${size}`, dir, (folder) =>
    // Low bitrate and the fastest VP8 settings: the machine is shared; the picture only has to show the time.
    run('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${fps}:duration=${seconds}`],
      ...['-f', 'lavfi', '-i', `anullsrc=channel_layout=stereo:sample_rate=48000`],
      ...['-t', String(seconds), '-map', '0:v', '-map', '1:a'],
      ...['-c:v', 'libvpx', '-b:v', '400k', '-deadline', 'realtime', '-cpu-used', '8', '-g', String(fps), '-keyint_min', String(fps)],
      ...['-c:a', 'libopus', '-b:a', '32k'],
      join(folder, file),
    ]).then(() => undefined),
  );
  return { dir, file };
}

/** The test picture as H.264 + AAC (what HLS and DASH players expect), a keyframe every second, into `output` with the muxer's `format` arguments. */
async function encodeStreaming({ seconds, fps, size }: Required<TestVideoOptions>, format: string[], output: string): Promise<void> {
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y'],
    ...['-f', 'lavfi', '-i', `testsrc2=size=${size}:rate=${fps}:duration=${seconds}`],
    ...['-f', 'lavfi', '-i', `anullsrc=channel_layout=stereo:sample_rate=48000`],
    ...['-t', String(seconds), '-map', '0:v', '-map', '1:a'],
    ...['-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-g', String(fps), '-keyint_min', String(fps)],
    ...['-c:a', 'aac', '-b:a', '32k'],
    ...format,
    output,
  ]);
}

/** Writes an HLS video-on-demand of `seconds` into `<dir>/hls/` (index.m3u8 and 2 s MPEG-TS segments); returns its path under `dir`. */
export async function makeTestHls(dir: string, { seconds = 12, fps = 30, size = '320x180' }: TestVideoOptions = {}): Promise<string> {
  await madeOnce(`hls ${seconds} ${fps} ${size}`, join(dir, 'hls'), (folder) =>
    encodeStreaming({ seconds, fps, size }, ['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_filename', join(folder, 'seg%03d.ts')], join(folder, 'index.m3u8')),
  );
  return 'hls/index.m3u8';
}

/**
 * Writes an HLS ladder of `seconds` into `<dir>/ladder/`: a master playlist of two rungs, 180p
 * (`low/`, segments `low000.ts`…) and 360p (`high/`, `high000.ts`…); returns the master's path
 * under `dir`. The segment names tell the rungs apart, through the media proxy too.
 */
export async function makeTestHlsLadder(dir: string, { seconds = 12, fps = 30 }: Omit<TestVideoOptions, 'size'> = {}): Promise<string> {
  const rungs = [
    { name: 'low', size: '320x180', bandwidth: 400_000 },
    { name: 'high', size: '640x360', bandwidth: 1_200_000 },
  ];
  await madeOnce(`hls ladder ${seconds} ${fps}`, join(dir, 'ladder'), async (folder) => {
    for (const rung of rungs) {
      await mkdir(join(folder, rung.name));
      await encodeStreaming({ seconds, fps, size: rung.size }, ['-f', 'hls', '-hls_time', '2', '-hls_playlist_type', 'vod', '-hls_segment_filename', join(folder, rung.name, `${rung.name}%03d.ts`)], join(folder, rung.name, 'index.m3u8'));
    }
    const variants = rungs.map((rung) => `#EXT-X-STREAM-INF:BANDWIDTH=${rung.bandwidth},RESOLUTION=${rung.size}\n${rung.name}/index.m3u8`);
    await writeFile(join(folder, 'master.m3u8'), ['#EXTM3U', '#EXT-X-VERSION:3', ...variants, ''].join('\n'));
  });
  return 'ladder/master.m3u8';
}

/**
 * Writes an MPEG-DASH video-on-demand of `seconds` into `<dir>/dash/` with ffmpeg's DASH muxer
 * (manifest.mpd with a SegmentTemplate per stream, fragmented-MP4 init and 2 s media segments);
 * returns the manifest's path under `dir`.
 */
export async function makeTestDash(dir: string, { seconds = 12, fps = 30, size = '320x180' }: TestVideoOptions = {}): Promise<string> {
  await madeOnce(`dash ${seconds} ${fps} ${size}`, join(dir, 'dash'), (folder) =>
    encodeStreaming({ seconds, fps, size }, ['-f', 'dash', '-seg_duration', '2', '-use_template', '1', '-use_timeline', '0'], join(folder, 'manifest.mpd')),
  );
  return 'dash/manifest.mpd';
}

export interface MediaServer {
  /** host:port, to allow in `bed.person({ allowHosts })`. */
  host: string;
  url(file: string): string;
  close(): Promise<void>;
}

/** Serves `dir` on 127.0.0.1 with Range requests (what <video> seeking needs). */
export async function serveMedia(dir: string): Promise<MediaServer> {
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://media').pathname;
    send(request, path, { root: dir })
      .on('error', (error: { status?: number }) => {
        response.statusCode = error.status ?? 500;
        response.end();
      })
      .pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    host,
    url: (file) => `http://${host}/${file}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
