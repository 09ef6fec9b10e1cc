/**
 * Burning in a picture subtitle through the whole service (media/transcode/burn.ts; gateway,
 * actor host and transcoder roles of one process, nginx serving the fixture): an H.264 + AAC
 * Matroska file with a PGS and an SRT stream is remuxed (video copied), and the play answer
 * offers its PGS stream, not the SRT one, burned in; the burned master lists one converted rung
 * at the source height on 2 s segments; its segments carry the caption in the picture while it
 * shows and the source's picture when it does not; an index that is not a picture stream is a
 * 404 with a sentence, at the gateway and at the transcoder alike.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import { waitFor } from '../../fixtures/deadline.js';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { testStack } from '../../harness/stack.js';
import { openTranscodeClient, type TranscodeClient } from '../../../media/index.js';
import type { BurnableSubtitle, PlayTranscode } from '../../../contracts/http/media.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { MediaReach } from '../../../contracts/room/reach.js';
import { addItem, createRoom, playInfo, read, startMediaBed } from '../media-bed.js';
import { fixture } from './fixtures.js';
import { firstDecodeTimes } from './fmp4.js';

const run = promisify(execFile);

interface Play {
  sources: Array<{ url: string; type: string }>;
  transcode?: PlayTranscode;
}

let bed: GatewayBed;
let nginx: Nginx;
let owner: Member;
let nats: NatsConnection;
let client: TranscodeClient;
let source: string;
let scratch: string;

test.before(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'svc-burn-media-'));
  scratch = await mkdtemp(join(tmpdir(), 'svc-burn-pictures-'));
  source = await fixture('h264-aac-pgs-srt-mkv');
  await copyFile(source, join(dir, 'signs.mkv'));
  nginx = await startNginx({ root: dir });
  bed = await startMediaBed('transcode_burn', { SVC_TRANSCODER_MAX_ENCODES: '2' }, ['gateway', 'actors', 'transcoder']);
  owner = await bed.signUp('burn-owner');
  nats = await connect({ servers: testStack().natsUrl });
  client = await openTranscodeClient(nats, bed.config.nats.subject_prefix, bed.config.nats.replicas);
});
test.after.always(async () => {
  await client?.close();
  await nats?.close();
  await bed?.close();
  await nginx?.stop();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

/** The item once its probe has answered (the room publishes it with its reach). */
async function probed(roomId: string, mediaId: string): Promise<MediaItem & { reach: MediaReach }> {
  return waitFor(
    'the probe of the item',
    async () => {
      const answer = await bed.call<{ items: MediaItem[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
      const item = answer.body.items.find((entry) => entry.id === mediaId);
      return item?.reach ? (item as MediaItem & { reach: MediaReach }) : undefined;
    },
    30_000,
    200,
  );
}

const absolute = (path: string) => new URL(path, bed.url).href;

/** A frame as 64×36 grey levels: enough to see a caption, blind to encoding noise. */
async function grey(args: string[]): Promise<Uint8Array> {
  const { stdout } = await run('ffmpeg', ['-v', 'error', ...args, '-frames:v', '1', '-vf', 'scale=64:36,format=gray', '-f', 'rawvideo', 'pipe:1'], { encoding: 'buffer', maxBuffer: 1 << 20 });
  return stdout;
}

/** The first picture of segment n of the rung at `base`, and the time it starts at. */
async function segmentPicture(base: string, n: number): Promise<{ start: number | undefined; picture: Uint8Array }> {
  const [init, segment] = await Promise.all([read(`${base}init.mp4`), read(`${base}${n}.m4s`)]);
  if (init.status !== 200 || segment.status !== 200) throw new Error(`init ${init.status}, segment ${segment.status}: ${segment.body.toString('utf8').slice(0, 300)}`);
  const path = join(scratch, `segment-${n}.mp4`);
  await writeFile(path, Buffer.concat([init.body, segment.body]));
  return { start: firstDecodeTimes(init.body, segment.body).get(1), picture: await grey(['-i', path]) };
}

/** One frame at the fixture's 25 fps. */
const FRAME = 0.04;

/**
 * The source's picture on screen at `seconds`: the last frame at or before it. The fixture's
 * video starts 21 ms in (Matroska's), so its frames fall between the converted ones' instants;
 * `-ss` lands on the first frame at or after its time, hence a frame's length (less a hair) back.
 */
function sourcePictureAt(seconds: number): Promise<Uint8Array> {
  return grey(['-ss', (seconds - FRAME + 0.001).toFixed(3), '-i', source, '-map', '0:v:0']);
}

/** Mean absolute difference of two grey pictures (0-255). */
const difference = (a: Uint8Array, b: Uint8Array) => a.reduce((sum, value, i) => sum + Math.abs(value - (b[i] ?? 0)), 0) / a.length;

test.serial('a remuxed file with a PGS and an SRT stream: the PGS one is offered burned in, converted at the source height, the caption in the picture while it shows', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/signs.mkv`, title: 'Signs' });
  const item = await probed(roomId, mediaId);
  t.like(item.reach, { how: 'remux', videoTreatment: 'copy', height: 360 });
  const pgs = item.reach.imageSubtitles.find((stream) => stream.codec === 'hdmv_pgs_subtitle');
  t.truthy(pgs, JSON.stringify(item.reach.imageSubtitles));

  const info = (await playInfo(bed, roomId, mediaId, owner)) as unknown as Play;
  t.is(info.transcode?.refused, undefined);
  const burnable = info.transcode?.burnable ?? [];
  t.deepEqual(
    burnable.map((stream: BurnableSubtitle) => ({ index: stream.index, codec: stream.codec, language: stream.language, title: stream.title })),
    [{ index: pgs!.index, codec: 'hdmv_pgs_subtitle', language: 'eng', title: 'Signs' }],
    'the PGS stream alone: the SRT one stays a text track',
  );
  const offered = burnable[0]!;
  t.is(offered.url, info.sources[0]!.url.replace(/master\.m3u8$/, `master-s${pgs!.index}.m3u8`), 'under the same grant as the plain master');

  const master = await read(absolute(offered.url));
  t.is(master.status, 200);
  const rung = `360-s${pgs!.index}`;
  t.regex(master.body.toString('utf8'), new RegExp(`RESOLUTION=640x360,CODECS="avc1\\.64[0-9a-f]{4},mp4a\\.40\\.2"\\n${rung}/index\\.m3u8`));
  const base = absolute(offered.url.replace(/master-s\d+\.m3u8$/, `${rung}/`));
  const playlist = await read(`${base}index.m3u8`);
  t.is(playlist.status, 200);
  t.is(playlist.body.toString('utf8').match(/^#EXTINF:2\.0\d\d,$/gm)?.length, 6, 'converted: 12 s in segments of 2 s (the copied rung has 6 s)');
  const plain = (await read(absolute(info.sources[0]!.url.replace(/master\.m3u8$/, '0/index.m3u8')))).body.toString('utf8');
  t.is(plain.match(/^#EXTINF:6\.0\d\d,$/gm)?.length, 2, 'the plain rung keeps its copied video on 6 s');

  // PGS_CAPTIONS: one from 1 s to 4 s, one from 5 s to 8 s; segment 1 starts at 2 s, segment 5 at 10 s.
  const [captioned, clear] = [await segmentPicture(base, 1), await segmentPicture(base, 5)];
  t.is(captioned.start, 2);
  t.is(clear.start, 10);
  const [atTwo, atTen] = await Promise.all([sourcePictureAt(2), sourcePictureAt(10)]);
  const withCaption = difference(captioned.picture, atTwo);
  const without = difference(clear.picture, atTen);
  t.true(withCaption > 1, `the caption is in the picture at 2 s (${withCaption.toFixed(2)} from the source's)`);
  t.true(without < 0.5, `no caption at 10 s: the source's picture (${without.toFixed(2)} from it)`);
});

test.serial('a stream that is not a picture subtitle is a 404 with a sentence, at the gateway and at the transcoder', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${nginx.url}/signs.mkv`, title: 'Signs' });
  const item = await probed(roomId, mediaId);
  const pgs = item.reach.imageSubtitles[0]!.index;
  const srt = pgs + 1;
  const info = (await playInfo(bed, roomId, mediaId, owner)) as unknown as Play;
  const master = info.sources[0]!.url;

  for (const path of [`master-s${srt}.m3u8`, `360-s${srt}/index.m3u8`, `360-s${srt}/init.mp4`, `360-s${srt}/0.m4s`]) {
    const answer = await read(absolute(master.replace(/master\.m3u8$/, path)));
    t.is(answer.status, 404, path);
    t.regex(answer.body.toString('utf8'), new RegExp(`no picture subtitle stream s${srt} to burn in; it has s${pgs}`), path);
  }
  const wrongRung = await read(absolute(master.replace(/master\.m3u8$/, `720-s${pgs}/index.m3u8`)));
  t.is(wrongRung.status, 404);
  t.regex(wrongRung.body.toString('utf8'), new RegExp(`no rung 720-s${pgs}; it has 360-s${pgs}`));

  // The transcoder checks what it is asked as well: a request straight over NATS.
  const refused = await t.throwsAsync(client.read(roomId, item, { rung: 360, burn: srt }, 'init', new AbortController().signal));
  t.like(refused, { code: 'not_found' });
  t.regex(refused?.message ?? '', new RegExp(`no picture subtitle stream s${srt}`));
});
