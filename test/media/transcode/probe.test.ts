/**
 * The media probe (issue 40): every fixture, served by nginx and read through the media proxy
 * (test/media/transcode/proxy-front.ts) as the service reads an item's media, probed with
 * `probeMedia` as the service calls it, gives the facts ffmpeg wrote into it and the reach a
 * member would see. Plain audio files are read too (and played as they are); what is not media,
 * what the address policy refuses and what ffprobe cannot read get sentences of our own, with
 * the signed URL kept out of the log. The fixtures themselves are checked here as well: a
 * keyframe every 2 s, and a PGS stream ffmpeg decodes.
 */
import test from 'ava';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import { pino } from 'pino';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { isAppError } from '../../../errors/index.js';
import { MediaTools } from '../../../media/tools/media-tools.js';
import type { MediaProfile } from '../../../media/transcode/media-profile.js';
import { probeMedia } from '../../../media/transcode/probe.js';
import { reachOf } from '../../../media/transcode/reach.js';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import { fixture, PGS_CAPTIONS, type FixtureName } from './fixtures.js';
import { startProxyFront, type ProxyFront } from './proxy-front.js';

const run = promisify(execFile);

let nginx: Nginx;
let front: ProxyFront;
let tools: MediaTools;
const files = new Map<FixtureName, string>();
const logged: Array<Record<string, unknown>> = [];
let processes = 0;

const NAMES: FixtureName[] = ['h264-aac-mp4', 'h264-ac3-mkv', 'hevc10-eac3-mkv', 'h264-dts-mkv', 'mpeg4-mp3-avi', 'h264-mp2-ts', 'h264-aac-pgs-srt-mkv'];

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-probe-'));
  for (const name of NAMES) {
    const path = await fixture(name);
    files.set(name, path);
    await copyFile(path, join(dir, basename(path)));
  }
  // Made here, not among the fixtures: a tagged MP3 with cover art (an ID3 tag past the sniffed bytes), a WebM, and files that are not media.
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=duration=3', '-f', 'lavfi', '-i', 'testsrc2=size=320x320:duration=1', '-map', '0:a', '-map', '1:v', '-frames:v', '1', '-c:a', 'libmp3lame', '-ac', '2', '-c:v', 'png', '-disposition:v', 'attached_pic', '-metadata', 'title=Song', join(dir, 'song.mp3')]);
  await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=160x90:rate=25:duration=2', '-f', 'lavfi', '-i', 'sine=duration=2', '-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '200k', '-c:a', 'libopus', '-ac', '2', join(dir, 'clip.webm')]);
  await writeFile(join(dir, 'notes.txt'), 'these are not the frames you are looking for\n'.repeat(40));
  // A Matroska header and then nothing ffprobe can read.
  await writeFile(join(dir, 'broken.mkv'), Buffer.concat([Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0xf7, 0x81, 0x01, 0x42, 0xf2, 0x81, 0x04]), Buffer.alloc(4096, 0xee)]));
  nginx = await startNginx({ root: dir });
  front = await startProxyFront();
  const log = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logged.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  });
  tools = new MediaTools({ concurrency: 2, queueSize: 16, queueWaitMs: 60_000, logger: pino({ level: 'warn' }, log) });
  tools.observe({ job: () => undefined, process: () => (processes += 1) });
});
test.after.always(async () => {
  await Promise.allSettled([front?.stop(), nginx?.stop()]);
});

const sourceOf = (file: string) => {
  const upstream = `${nginx.url}/${file}`;
  return { url: front.urlFor(upstream), identity: `url:${upstream}` };
};
const probeFixture = (name: FixtureName) => probeMedia(tools, sourceOf(basename(files.get(name)!)));
const reach = (profile: MediaProfile) => reachOf(profile, { maxHeight: 1080 });

const h264 = { codec: 'h264', profile: 'High', bitDepth: 8, chroma: '4:2:0', hdr: null, width: 640, height: 360, frameRate: 25 } as const;
const stereo = { channels: 2, layout: 'stereo', language: null, default: true } as const;
/** AVI and MPEG-TS have no default flag. */
const unflagged = { default: false } as const;
const surround = { channels: 6, layout: '5.1(side)', language: null, default: true } as const;
const none = { imageSubtitles: [], heights: [] };

interface Case {
  container: string;
  video: Partial<NonNullable<MediaProfile['video']>>;
  audio: Partial<MediaProfile['audio'][number]>;
  reach: Partial<MediaReach>;
}

const CASES: Record<FixtureName, Case> = {
  'h264-aac-mp4': {
    container: 'mov',
    video: h264,
    audio: { codec: 'aac', profile: 'LC', ...stereo, language: null },
    reach: { how: 'direct', container: 'mov', video: 'H.264 High, 640×360', audio: 'AAC stereo', blockers: [], videoTreatment: 'copy', audioTreatment: 'copy', ...none },
  },
  'h264-ac3-mkv': {
    container: 'matroska',
    video: h264,
    audio: { codec: 'ac3', ...surround },
    reach: { how: 'audio', container: 'matroska', audio: 'AC3 5.1', blockers: [{ kind: 'container', name: 'Matroska' }, { kind: 'audio', name: 'AC3' }], videoTreatment: 'copy', audioTreatment: 'convert', ...none },
  },
  'hevc10-eac3-mkv': {
    container: 'matroska',
    video: { codec: 'hevc', profile: 'Main 10', bitDepth: 10, chroma: '4:2:0', hdr: null, width: 640, height: 360, frameRate: 25 },
    audio: { codec: 'eac3', ...surround },
    reach: {
      how: 'video',
      video: 'HEVC Main 10, 640×360',
      audio: 'E-AC3 5.1',
      blockers: [{ kind: 'container', name: 'Matroska' }, { kind: 'video', name: 'HEVC 10-bit' }, { kind: 'audio', name: 'E-AC3' }],
      height: 360,
      heights: [360],
      videoTreatment: 'convert',
      audioTreatment: 'convert',
    },
  },
  'h264-dts-mkv': {
    container: 'matroska',
    video: h264,
    audio: { codec: 'dts', profile: 'DTS', ...surround },
    reach: { how: 'audio', audio: 'DTS 5.1', blockers: [{ kind: 'container', name: 'Matroska' }, { kind: 'audio', name: 'DTS' }], audioTreatment: 'convert', ...none },
  },
  'mpeg4-mp3-avi': {
    container: 'avi',
    video: { codec: 'mpeg4', profile: 'Simple Profile', bitDepth: 8, chroma: '4:2:0', width: 640, height: 360, frameRate: 25 },
    audio: { codec: 'mp3', ...stereo, ...unflagged },
    reach: {
      how: 'video',
      container: 'avi',
      video: 'MPEG-4 Part 2 Simple Profile, 640×360',
      audio: 'MP3 stereo',
      blockers: [{ kind: 'container', name: 'AVI' }, { kind: 'video', name: 'MPEG-4 Part 2' }],
      heights: [360],
      videoTreatment: 'convert',
      audioTreatment: 'convert',
    },
  },
  'h264-mp2-ts': {
    container: 'mpegts',
    video: h264,
    audio: { codec: 'mp2', ...stereo, ...unflagged },
    reach: { how: 'audio', container: 'mpegts', audio: 'MP2 stereo', blockers: [{ kind: 'container', name: 'MPEG-TS' }, { kind: 'audio', name: 'MP2' }], videoTreatment: 'copy', audioTreatment: 'convert', ...none },
  },
  'h264-aac-pgs-srt-mkv': {
    container: 'matroska',
    video: h264,
    audio: { codec: 'aac', profile: 'LC', ...stereo },
    reach: {
      how: 'remux',
      blockers: [{ kind: 'container', name: 'Matroska' }],
      videoTreatment: 'copy',
      audioTreatment: 'copy',
      heights: [],
      imageSubtitles: [{ index: 2, codec: 'hdmv_pgs_subtitle', language: 'eng', title: 'Signs' }],
    },
  },
};

/** `actual` with only the keys of `expected`: what a case names is compared, the rest left out. */
const picked = <T extends object>(actual: T, expected: Partial<T>): Partial<T> => Object.fromEntries(Object.keys(expected).map((key) => [key, actual[key as keyof T]])) as Partial<T>;

for (const name of NAMES) {
  test(`${name}: the probed facts and how it reaches browsers`, async (t) => {
    const expected = CASES[name];
    const profile = await probeFixture(name);
    t.is(profile.container, expected.container);
    t.true(profile.durationSeconds !== null && Math.abs(profile.durationSeconds - 12) < 0.2, `duration ${profile.durationSeconds}`);
    t.true((profile.bitRate ?? 0) > 100_000, `bit rate ${profile.bitRate}`);
    t.is(profile.video?.index, 0);
    t.deepEqual(picked(profile.video!, expected.video), expected.video);
    t.is(profile.audio.length, 1);
    t.is(profile.audio[0]?.index, 1);
    t.deepEqual(picked(profile.audio[0]!, expected.audio), expected.audio);
    const reached = reach(profile);
    t.deepEqual(picked(reached, expected.reach), expected.reach);
    t.is(reached.videoStream, 0);
    t.is(reached.audioStream, 1);
    t.is(reached.height, 360);
    t.true(reached.durationSeconds !== null && Math.abs(reached.durationSeconds - 12) < 0.2);
  });
}

test('the PGS fixture: the image and the text stream as the profile has them, Matroska DocType read from the header', async (t) => {
  const profile = await probeFixture('h264-aac-pgs-srt-mkv');
  t.is(profile.docType, 'matroska');
  t.deepEqual(profile.subtitles, [
    { index: 2, codec: 'hdmv_pgs_subtitle', kind: 'image', language: 'eng', title: 'Signs' },
    { index: 3, codec: 'subrip', kind: 'text', language: 'fre', title: null },
  ]);
});

test('the PGS stream decodes: overlaid on black, its caption shows while it is on and is gone after', async (t) => {
  const file = files.get('h264-aac-pgs-srt-mkv')!;
  const whitePixels = async (seconds: number): Promise<number> => {
    const { stdout } = await run(
      'ffmpeg',
      ['-v', 'error', '-f', 'lavfi', '-i', 'color=black:size=640x360:rate=25:duration=12', '-i', file, '-filter_complex', `[0:v][1:s:0]overlay,trim=start=${seconds},setpts=PTS-STARTPTS`, '-frames:v', '1', '-pix_fmt', 'gray', '-f', 'rawvideo', 'pipe:1'],
      { encoding: 'buffer', maxBuffer: 1 << 20 },
    );
    return stdout.filter((value) => value > 200).length;
  };
  const [first, second] = PGS_CAPTIONS;
  t.true((await whitePixels(first!.startSeconds + 1)) > 1000, 'the first caption shows');
  t.is(await whitePixels(first!.endSeconds + 0.5), 0, 'and is cleared');
  t.true((await whitePixels(second!.startSeconds + 1)) > 1000, 'the second caption shows');
  t.is(await whitePixels(second!.endSeconds + 1), 0, 'and is cleared');
});

test('the H.264 and HEVC fixtures have a keyframe every 2 s and none between', async (t) => {
  for (const name of ['h264-aac-mp4', 'hevc10-eac3-mkv', 'h264-mp2-ts'] as const) {
    const { stdout } = await run('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'packet=pts_time,flags', '-of', 'csv=p=0', files.get(name)!]);
    const keys = stdout.split('\n').filter((line) => line.includes('K')).map((line) => Number(line.split(',')[0]));
    const start = keys[0] ?? 0;
    t.deepEqual(keys.map((time) => Math.round((time - start) * 100) / 100), [0, 2, 4, 6, 8, 10], name);
  }
});

test('a tagged MP3 with cover art is read as an MP3 file and plays as it is: the picture is not the video', async (t) => {
  const profile = await probeMedia(tools, sourceOf('song.mp3'));
  t.is(profile.container, 'mp3');
  t.is(profile.video, null);
  t.like(profile.audio[0], { codec: 'mp3', channels: 2 });
  const reached = reach(profile);
  t.like(reached, { how: 'direct', container: 'mp3', video: null, audio: 'MP3 stereo', blockers: [], videoStream: null, videoTreatment: null, audioTreatment: 'copy', heights: [] });
});

test('a WebM of VP8 and Opus plays as it is (Matroska DocType webm)', async (t) => {
  const profile = await probeMedia(tools, sourceOf('clip.webm'));
  t.is(profile.container, 'matroska');
  t.is(profile.docType, 'webm');
  t.like(reach(profile), { how: 'direct', container: 'webm', video: 'VP8, 160×90', audio: 'Opus stereo', blockers: [] });
});

test.serial('what is not media is refused before any tool runs', async (t) => {
  const before = processes;
  const error = await t.throwsAsync(probeMedia(tools, sourceOf('notes.txt')));
  t.true(isAppError(error));
  t.like(error, { code: 'bad_gateway' });
  t.regex(error.message, /not a file the service can read/);
  t.is(processes, before);
});

test.serial('an upstream the address policy refuses: the proxy\'s refusal is passed on, no tool runs', async (t) => {
  const before = processes;
  const upstream = 'http://169.254.169.254/latest/meta-data/movie.mkv';
  const error = await t.throwsAsync(probeMedia(tools, { url: front.urlFor(upstream), identity: `url:${upstream}` }));
  t.like(error, { code: 'forbidden' });
  t.is(processes, before);
});

test('a file ffprobe cannot read: our sentence for the caller, the tool\'s words in the log without the signed URL', async (t) => {
  const source = sourceOf('broken.mkv');
  const error = await t.throwsAsync(probeMedia(tools, source));
  t.like(error, { code: 'bad_gateway' });
  t.is(error.message, "the media's format could not be read: it starts like a Matroska/WebM file, but ffprobe could not read it as one");
  const entry = logged.find((line) => line.container === 'matroska' && line.tool === 'ffprobe');
  t.truthy(entry, JSON.stringify(logged));
  t.false(JSON.stringify(entry).includes(source.url));
  t.false(JSON.stringify(entry).includes('/media/proxy/'));
});

test.serial('asks for the same media at once share one ffprobe run', async (t) => {
  const before = processes;
  const source = sourceOf(basename(files.get('h264-ac3-mkv')!));
  const [one, two] = await Promise.all([probeMedia(tools, source), probeMedia(tools, { ...source })]);
  t.deepEqual(one, two);
  t.is(processes - before, 1);
});
