/**
 * One rung's encoder against real ffmpeg (media/transcode/rung-encoder.ts), reading fixtures
 * over a loopback HTTP server with Range, as it reads the media proxy. What a viewer depends
 * on: segment n starts at n × D (the fMP4 `tfdt`) in a run from 0 and in a run from a seek; a
 * seek restarts the encoder and what follows comes from the new run, whose init is the same
 * bytes; segments made are reused without ffmpeg; two asks share a run; the encoder stops when
 * far ahead and when idle; a bad input fails the asks with our own sentence; copied video is
 * left as it is; the ladder's master playlist plays in ffprobe. No timing is asserted: waits
 * are on the encoder's events, with deadlines.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { isAppError } from '../../../errors/index.js';
import { createLogger } from '../../../observability/index.js';
import { avcCodecOfInit } from '../../../media/transcode/codec-strings.js';
import { planRung, type PlanFacts, type TranscodeSource } from '../../../media/transcode/encode-plan.js';
import { masterPlaylist, mediaPlaylist } from '../../../media/transcode/hls-playlists.js';
import { detectH264Encoder, softwareEncoder } from '../../../media/transcode/hw-encoders.js';
import { RungEncoder, runInitName, type RungEncoderEvents, type RungEncoderOptions } from '../../../media/transcode/rung-encoder.js';
import { SegmentStore } from '../../../media/transcode/segment-store.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { firstDecodeTimes } from './fmp4.js';
import { fixture, type FixtureName } from './fixtures.js';
import { serveFiles, type RangeServer } from './range-server.js';

const run = promisify(execFile);
const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });
const DEADLINE_MS = 60_000;
/** One frame at 25 fps: how far copied video may start after n × D (the source's keyframe). */
const FRAME = 0.04;
/** Audio is cut with the video's keyframe as it arrives, up to the B-frame delay (2 frames) and an AAC frame away. */
const AUDIO_SLACK = 0.11;

let server: RangeServer;
let store: SegmentStore;
let root: string;
let rungs = 0;

test.before(async () => {
  const files = await Promise.all([fixture('hevc10-eac3-mkv', LONG), fixture('h264-ac3-mkv', LONG), fixture('h264-aac-pgs-srt-mkv')]);
  server = await serveFiles(files);
  root = await mkdtemp(join(tmpdir(), 'svc-transcode-'));
  store = new SegmentStore({ root, maxBytes: 512 * 1024 * 1024 });
});

test.after.always(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

async function probe(path: string): Promise<{ streams: Array<Record<string, string | number>>; format: { duration?: string } }> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_name,codec_type,height,width,pix_fmt,profile,level,channels:format=duration', '-of', 'json', path]);
  return JSON.parse(stdout) as { streams: Array<Record<string, string | number>>; format: { duration?: string } };
}

/** Long enough for the seeks and the running ahead of these tests. */
const LONG = { seconds: 20 };

async function source(name: FixtureName, treatment: 'copy' | 'convert'): Promise<TranscodeSource> {
  const path = await fixture(name, name === 'h264-aac-pgs-srt-mkv' ? {} : LONG);
  const { streams, format } = await probe(path);
  const video = streams.find((stream) => stream.codec_type === 'video');
  const facts: PlanFacts = { width: Number(video?.width), height: Number(video?.height), frameRate: 25, audioSampleRate: 48_000 };
  if (typeof video?.profile === 'string') facts.profile = video.profile;
  if (typeof video?.level === 'number') facts.level = video.level;
  return {
    url: server.url(path),
    container: 'matroska',
    reach: { durationSeconds: Number(format.duration), videoStream: 0, audioStream: 1, videoTreatment: treatment, audioTreatment: 'convert', height: Number(video?.height) },
    facts,
  };
}

/** A rung encoder on its own shelf, with every event it emits recorded. */
async function encoderOf(src: TranscodeSource, options: Partial<RungEncoderOptions> & { height?: number } = {}) {
  rungs += 1;
  const plan = planRung(src, options.height ? { height: options.height } : {});
  const shelf = await store.shelf(`rung-${rungs}`);
  const encoder = new RungEncoder({ plan, shelf, encoder: softwareEncoder(2), zscale: true, logger, ...options });
  const events: Array<{ kind: keyof RungEncoderEvents; segment: number; stopped?: boolean }> = [];
  encoder.on('runStarted', ({ segment }) => events.push({ kind: 'runStarted', segment }));
  encoder.on('segmentWritten', ({ segment }) => events.push({ kind: 'segmentWritten', segment }));
  encoder.on('runEnded', ({ segment, stopped }) => events.push({ kind: 'runEnded', segment, stopped }));
  return { plan, shelf, encoder, events, starts: () => events.filter((event) => event.kind === 'runStarted').map((event) => event.segment) };
}

const within = <T>(promise: Promise<T>, what: string) => withDeadline(promise, DEADLINE_MS, what);

/** The video and audio start times of `segment` (track 1 is the video, 2 the audio). */
async function startsOf(folder: string, initPath: string, segmentPath: string) {
  void folder;
  const times = firstDecodeTimes(await readFile(initPath), await readFile(segmentPath));
  return { video: times.get(1) ?? Number.NaN, audio: times.get(2) ?? Number.NaN };
}

test.serial('converted video: segments start at n × D in a run from 0 and in a seek run, whose init is the same bytes', async (t) => {
  const { plan, shelf, encoder, events, starts } = await encoderOf(await source('hevc10-eac3-mkv', 'convert'), { height: 240 });
  t.teardown(() => encoder.close());
  t.is(plan.segmentSeconds, 2);
  const init = await within(encoder.init(), 'the init segment');
  for (const n of [0, 1, 2]) {
    const path = await within(encoder.segment(n), `segment ${n}`);
    const { video, audio } = await startsOf(shelf.folder, init, path);
    t.is(video, n * 2, `segment ${n}'s video starts at ${n * 2} s`);
    t.true(Math.abs(audio - n * 2) < AUDIO_SLACK, `segment ${n}'s audio starts at ${audio}`);
  }
  t.deepEqual(starts(), [0], 'one run so far');

  // A seek far ahead: the encoder restarts there and what follows comes from that run.
  const seekTo = 7;
  const seeked = await within(encoder.segment(seekTo), 'the segment seeked to');
  t.deepEqual(starts(), [0, seekTo], 'the seek started a run at its segment');
  const laterPath = await within(encoder.segment(seekTo + 1), 'the segment after it');
  const afterSeek = events.slice(events.findIndex((event) => event.kind === 'runStarted' && event.segment === seekTo));
  t.true(afterSeek.some((event) => event.kind === 'segmentWritten' && event.segment === seekTo + 1), 'the next segment came from the new run');
  t.is((await startsOf(shelf.folder, init, seeked)).video, seekTo * 2);
  t.is((await startsOf(shelf.folder, init, laterPath)).video, (seekTo + 1) * 2);
  t.true(Math.abs((await startsOf(shelf.folder, init, seeked)).audio - seekTo * 2) < AUDIO_SLACK);
  t.deepEqual(await readFile(join(shelf.folder, runInitName(seekTo))), await readFile(init), "the seek run's init is byte for byte the first run's");

  // What plays: H.264 8-bit 4:2:0 at the asked height, AAC stereo.
  const playable = join(shelf.folder, 'check.mp4');
  await writeFile(playable, Buffer.concat([await readFile(init), await readFile(seeked)]));
  const { streams } = await probe(playable);
  t.like(streams.find((stream) => stream.codec_type === 'video'), { codec_name: 'h264', height: 240, width: 426, pix_fmt: 'yuv420p' });
  t.like(streams.find((stream) => stream.codec_type === 'audio'), { codec_name: 'aac', channels: 2 });
  t.is(avcCodecOfInit(await readFile(init)), plan.variant.codecs.split(',')[0], "the variant's CODECS are the init's");
});

test.serial('segments on disk are served without ffmpeg; two asks for one segment share one run', async (t) => {
  const { encoder, starts, shelf } = await encoderOf(await source('hevc10-eac3-mkv', 'convert'), { height: 240 });
  t.teardown(() => encoder.close());
  const gaveUp = new AbortController();
  const abandoned = encoder.segment(4, gaveUp.signal);
  const outcome = abandoned.then(
    () => 'served',
    (err: unknown) => (err as { name?: string }).name,
  );
  gaveUp.abort();
  const [a, b] = await within(Promise.all([encoder.segment(4), encoder.segment(4)]), 'two asks for segment 4');
  t.is(await outcome, 'AbortError', 'an ask given up on is rejected with its signal');
  t.is(a, b);
  t.deepEqual(starts(), [4], 'one run for both');
  await within(encoder.close(), 'the run stopping');
  t.false(encoder.running);

  const again = new RungEncoder({ plan: planRung(await source('hevc10-eac3-mkv', 'convert'), { height: 240 }), shelf, encoder: softwareEncoder(2), zscale: true, logger });
  t.teardown(() => again.close());
  let started = 0;
  again.on('runStarted', () => (started += 1));
  const before = store.stats();
  t.is(await again.segment(4), a);
  t.is(started, 0, 'no ffmpeg for a segment on disk');
  t.false(again.running);
  t.is(store.stats().hits, before.hits + 1);
});

test.serial('the encoder stops once far enough ahead of the last ask, and when nobody asks', async (t) => {
  // An upstream of about 1.5 s of this media (84 KB/s) a second keeps ffmpeg at work past both limits, whatever the machine's speed.
  const path = await fixture('hevc10-eac3-mkv');
  const slow = await serveFiles([path], 128 * 1024);
  t.teardown(() => slow.close());
  const src = { ...(await source('hevc10-eac3-mkv', 'convert')), url: slow.url(path) };
  const ahead = await encoderOf(src, { height: 240, aheadSegments: 2 });
  t.teardown(() => ahead.encoder.close());
  const ended = once(ahead.encoder, 'runEnded') as Promise<RungEncoderEvents['runEnded']>;
  await within(ahead.encoder.segment(0), 'segment 0');
  const [end] = await within(ended, 'the run stopping ahead');
  t.true(end.stopped);
  t.false(ahead.encoder.running);
  const written = ahead.events.filter((event) => event.kind === 'segmentWritten').map((event) => event.segment);
  t.is(Math.max(...written), 3, 'it stopped after segment 0 + 2 + 1');

  const idle = await encoderOf(src, { height: 240, idleMs: 300 });
  t.teardown(() => idle.encoder.close());
  const idleEnded = once(idle.encoder, 'runEnded') as Promise<RungEncoderEvents['runEnded']>;
  await within(idle.encoder.segment(0), 'segment 0');
  const [stop] = await within(idleEnded, 'the idle run stopping');
  t.true(stop.stopped);
  t.false(idle.encoder.running);
});

test.serial('copied video (H.264 + AC3): the video is left as it is, the audio becomes AAC, cuts on the source keyframes at n × D', async (t) => {
  const src = await source('h264-ac3-mkv', 'copy');
  const { plan, shelf, encoder, starts } = await encoderOf(src);
  t.teardown(() => encoder.close());
  t.is(plan.segmentSeconds, 6);
  const init = await within(encoder.init(), 'the init segment');
  const first = await Promise.all([0, 1, 2].map((n) => within(encoder.segment(n), `segment ${n}`)));
  const runFromZero = await Promise.all(first.map(async (path) => (await startsOf(shelf.folder, init, path)).video));
  runFromZero.forEach((start, n) => t.true(start >= n * 6 && start < n * 6 + FRAME, `segment ${n} starts at the keyframe at ${n * 6} s (${start})`));
  await within(encoder.close(), 'the run stopping');

  const seeking = await encoderOf(src);
  t.teardown(() => seeking.encoder.close());
  const seeked = await within(seeking.encoder.segment(2), 'segment 2 by a seek');
  const seekInit = await within(seeking.encoder.init(), 'the init of the run from segment 2');
  t.deepEqual(seeking.starts(), [2]);
  t.is((await startsOf(seeking.shelf.folder, seekInit, seeked)).video, runFromZero[2] ?? Number.NaN, 'the seek run cuts where the run from 0 did');

  const whole = join(shelf.folder, 'check.mp4');
  await writeFile(whole, Buffer.concat([await readFile(init), ...(await Promise.all(first.map((path) => readFile(path))))]));
  const { streams } = await probe(whole);
  const original = (await probe(await fixture('h264-ac3-mkv'))).streams.find((stream) => stream.codec_type === 'video');
  t.like(streams.find((stream) => stream.codec_type === 'video'), { codec_name: 'h264', width: original?.width, height: original?.height, profile: original?.profile });
  t.like(streams.find((stream) => stream.codec_type === 'audio'), { codec_name: 'aac', channels: 2 });
  t.is(avcCodecOfInit(await readFile(init)), plan.variant.codecs.split(',')[0], "the copied stream's CODECS from its ffprobe profile and level match its avcC");
  t.deepEqual(starts(), [0]);
});

test.serial('without a GPU the encoder is libx264, its preset named for the log', async (t) => {
  const encoder = await within(detectH264Encoder({ cores: 2, testTimeoutMs: 10_000 }), 'the encoder test');
  t.is(encoder.name, existsSync('/dev/dri') ? encoder.name : 'libx264');
  t.regex(encoder.label, /^(libx264 \(superfast, 2 threads\)|h264_)/);
});

test.serial('an HDR (PQ) source is tone-mapped to SDR BT.709', async (t) => {
  const src = await source('hevc10-eac3-mkv', 'convert');
  const { encoder, shelf } = await encoderOf({ ...src, facts: { ...src.facts, hdr: 'pq' } }, { height: 240 });
  t.teardown(() => encoder.close());
  const init = await within(encoder.init(), 'the init segment');
  const segment = await within(encoder.segment(0), 'segment 0');
  const whole = join(shelf.folder, 'check.mp4');
  await writeFile(whole, Buffer.concat([await readFile(init), await readFile(segment)]));
  const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v', '-show_entries', 'stream=color_primaries,color_transfer,color_space,pix_fmt,height', '-of', 'json', whole]);
  const [video] = (JSON.parse(stdout) as { streams: unknown[] }).streams;
  t.like(video, { color_primaries: 'bt709', color_transfer: 'bt709', color_space: 'bt709', pix_fmt: 'yuv420p', height: 240 });
});

test.serial('a run that fails rejects the asks with our own sentence, without the URL', async (t) => {
  const src = await source('hevc10-eac3-mkv', 'convert');
  const broken = { ...src, url: server.url('missing.mkv') };
  const { encoder } = await encoderOf(broken, { height: 240 });
  t.teardown(() => encoder.close());
  const error = await t.throwsAsync(within(encoder.segment(0), 'the failure'));
  t.true(isAppError(error));
  t.like(error, { code: 'bad_gateway' });
  t.notRegex(error?.message ?? '', /127\.0\.0\.1|missing/);
  t.false(encoder.running);
});

test.serial('the ladder plays in ffprobe: master playlist, rung playlists and segments over HTTP', async (t) => {
  const src = await source('hevc10-eac3-mkv', 'convert');
  const ladder = await Promise.all([360, 240].map((height) => encoderOf(src, { height })));
  t.teardown(() => Promise.all(ladder.map(({ encoder }) => encoder.close())).then(() => undefined));
  const http = createServer((req, res) => {
    const [, rung, file] = (req.url ?? '').split('/');
    const at = ladder.find(({ plan }) => plan.name === rung);
    const send = (body: string | Buffer, type: string) => res.writeHead(200, { 'content-type': type }).end(body);
    if (req.url === '/master.m3u8') {
      send(masterPlaylist(ladder.map(({ plan }) => ({ url: `${plan.name}/index.m3u8`, ...plan.variant }))), 'application/vnd.apple.mpegurl');
    } else if (at && file === 'index.m3u8') {
      send(mediaPlaylist({ durationSeconds: at.plan.durationSeconds, segmentSeconds: at.plan.segmentSeconds, initUrl: 'init.mp4', segmentUrl: (n) => `${n}.m4s` }), 'application/vnd.apple.mpegurl');
    } else if (at && file) {
      const wanted = file === 'init.mp4' ? at.encoder.init() : at.encoder.segment(Number.parseInt(file, 10));
      wanted.then(
        async (path) => send(await readFile(path), 'video/mp4'),
        () => res.writeHead(502).end(),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => http.close(() => resolve())));
  const { port } = http.address() as AddressInfo;
  const { streams, format } = await within(probe(`http://127.0.0.1:${port}/master.m3u8`), 'ffprobe of the master playlist');
  const heights = streams.filter((stream) => stream.codec_type === 'video').map((stream) => stream.height).sort();
  t.deepEqual(heights, [240, 360]);
  t.true(streams.some((stream) => stream.codec_type === 'audio' && stream.codec_name === 'aac'));
  t.true(Math.abs(Number(format.duration) - src.reach.durationSeconds!) < 1, `the ladder lasts the media's ${src.reach.durationSeconds} s (${format.duration})`);
});

test.serial('an image subtitle burned in: the picture carries the caption while it shows, and is untouched when it does not', async (t) => {
  const path = await fixture('h264-aac-pgs-srt-mkv');
  const { streams } = await probe(path);
  const subtitle = streams.findIndex((stream) => stream.codec_name === 'hdmv_pgs_subtitle');
  t.true(subtitle > 0, 'the fixture has a PGS stream');
  const src = await source('h264-aac-pgs-srt-mkv', 'convert');
  const encoders = await Promise.all(
    [{ height: 360 }, { height: 360, burnSubtitle: subtitle }].map(async (request, i) => {
      const encoder = new RungEncoder({ plan: planRung(src, request), shelf: await store.shelf(`pgs-${i}`), encoder: softwareEncoder(2), zscale: true, logger });
      t.teardown(() => encoder.close());
      return encoder;
    }),
  );
  /** The first picture of segment n, 64×36 grey bytes. */
  const picture = async (encoder: RungEncoder, n: number): Promise<Buffer> => {
    const [init, segment] = await within(Promise.all([encoder.init(), encoder.segment(n)]), `segment ${n}`);
    const joined = join(root, `joined-${n}-${encoders.indexOf(encoder)}.mp4`);
    await writeFile(joined, Buffer.concat([await readFile(init), await readFile(segment)]));
    const { stdout } = await run('ffmpeg', ['-v', 'error', '-i', joined, '-frames:v', '1', '-vf', 'scale=64:36,format=gray', '-f', 'rawvideo', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 20 });
    return stdout;
  };
  const difference = async (n: number): Promise<number> => {
    const [plain, burned] = await Promise.all(encoders.map((encoder) => picture(encoder, n)));
    return plain!.reduce((sum, value, i) => sum + Math.abs(value - burned![i]!), 0) / plain!.length;
  };
  // PGS_CAPTIONS: one from 1 s to 4 s, one from 5 s to 8 s; segment 1 starts at 2 s, segment 5 at 10 s.
  t.true((await difference(1)) > 1, 'the caption is in the picture at 2 s');
  t.true((await difference(5)) < 0.5, 'no caption at 10 s: the same picture');
});
