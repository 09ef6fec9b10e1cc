/**
 * Subtitle tracks through a whole service (docs/2026-11-26-subtitles.md): uploads within their
 * caps and permissions, URL tracks fetched under the proxy's address rules, SRT given out as
 * WebVTT, the track rules the room checks, and the text streams of a proxied MKV listed and
 * extracted with ffmpeg through the service's own proxy.
 */
import test from 'ava';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { startNginx, type Nginx } from '../../fixtures/nginx.js';
import type { GatewayBed, Member } from '../../gateways/bed.js';
import { addItem, createRoom, join as joinRoom, startMediaBed } from '../media-bed.js';
import { countingSrt, countingVtt, makeSubtitledMkv, styledAss } from './fixtures.js';

let bed: GatewayBed;
let owner: Member;
let upstream: Nginx;
let db: pg.Pool;

test.before(async () => {
  const media = await makeSubtitledMkv();
  await writeFile(join(media.dir, 'movie.srt'), countingSrt('Remote'));
  await writeFile(join(media.dir, 'movie.vtt'), countingVtt('Web'));
  upstream = await startNginx({ root: media.dir });
  bed = await startMediaBed('subtitles');
  owner = await bed.signUp('owner');
  db = new pg.Pool({ connectionString: bed.databaseUrl, max: 1 });
});
test.after.always(async () => {
  await db?.end();
  await bed?.close();
  await upstream?.stop();
});

interface Track {
  id: string;
  name: string;
  language?: string;
  format: 'vtt' | 'ass';
  source: string;
  default: boolean;
}
interface ErrorBody {
  code: string;
  message: string;
}

const b64 = (text: string | Buffer) => Buffer.from(text).toString('base64');

async function upload(roomId: string, member: Member, body: Record<string, unknown>) {
  return bed.call<{ file: { id: string; format: string; size: number } } & ErrorBody>('POST', `/api/rooms/${roomId}/subtitle-files`, body, member.token);
}

async function tracksOf(roomId: string, mediaId: string, member: Member): Promise<Track[]> {
  const answer = await bed.call<{ tracks: Track[] }>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles`, undefined, member.token);
  if (answer.status !== 200) throw new Error(`tracks: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.tracks;
}

async function textOf(roomId: string, mediaId: string, trackId: string, member: Member) {
  return bed.call<{ format: string; text: string } & ErrorBody>('GET', `/api/rooms/${roomId}/playlist/${mediaId}/subtitles/${trackId}`, undefined, member.token);
}

const fileCount = async (roomId: string) => Number((await db.query<{ n: string }>('SELECT count(*) AS n FROM subtitle_files WHERE room_id = $1', [roomId])).rows[0]!.n);

test('an uploaded SRT (UTF-16 with a byte-order mark) is stored as text and served as WebVTT; the room default is marked', async (t) => {
  const roomId = await createRoom(bed, owner);
  const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(countingSrt('Über'), 'utf16le')]);
  const stored = await upload(roomId, owner, { name: 'movie.de.srt', content: b64(utf16) });
  t.is(stored.status, 201, JSON.stringify(stored.body));
  t.is(stored.body.file.format, 'srt');
  t.is(stored.body.file.size, Buffer.byteLength(countingSrt('Über')));

  const mediaId = await addItem(bed, roomId, owner, {
    url: `${upstream.url}/inside.mkv`,
    subtitles: [
      { name: 'Deutsch', language: 'de', fileId: stored.body.file.id, default: true },
      { name: 'Remote', url: `${upstream.url}/movie.srt` },
      { name: 'Web', url: `${upstream.url}/movie.vtt` },
    ],
  });
  const tracks = await tracksOf(roomId, mediaId, owner);
  t.deepEqual(tracks, [
    { id: '0', name: 'Deutsch', language: 'de', format: 'vtt', source: 'file', default: true },
    { id: '1', name: 'Remote', format: 'vtt', source: 'url', default: false },
    { id: '2', name: 'Web', format: 'vtt', source: 'url', default: false },
  ]);
  const file = await textOf(roomId, mediaId, '0', owner);
  t.is(file.body.format, 'vtt');
  t.true(file.body.text.startsWith('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\n<i>Über</i> 0\n'), file.body.text.slice(0, 80));
  const remote = await textOf(roomId, mediaId, '1', owner);
  t.regex(remote.body.text, /^WEBVTT\n\n00:00:00\.000 --> 00:00:02\.000\n<i>Remote<\/i> 0\n/);
  t.is((await textOf(roomId, mediaId, '2', owner)).body.text, countingVtt('Web'));
  const missing = await textOf(roomId, mediaId, '7', owner);
  t.is(missing.status, 404);
  t.regex(missing.body.message, /no subtitle track 7/);
});

test('uploads need create or edit media; refused uploads write nothing, and the per-room count is a cap', async (t) => {
  const roomId = await createRoom(bed, owner);
  const gus = await bed.guest('Gus');
  await joinRoom(bed, roomId, gus);
  const refused = await upload(roomId, gus, { name: 'a.srt', content: b64(countingSrt('A')) });
  t.is(refused.status, 403);
  t.regex(refused.body.message, /create_media_resource or edit_media_resource/);
  const stranger = await bed.signUp('stranger');
  t.is((await upload(roomId, stranger, { name: 'a.srt', content: b64(countingSrt('A')) })).status, 403);

  const latin1 = await upload(roomId, owner, { name: 'a.srt', content: b64(Buffer.from('1\n00:00:01,000 --> 00:00:02,000\nCaf\xe9\n', 'latin1')) });
  t.is(latin1.status, 400);
  t.regex(latin1.body.message, /^content: is not UTF-8 text/);
  const notAss = await upload(roomId, owner, { name: 'a.ass', content: b64('hello there') });
  t.is(notAss.status, 400);
  t.regex(notAss.body.message, /content: does not look like ASS\/SSA/);
  // One byte over 2 MiB still fits the base64 bound (whole groups of 3); the decoded size is what counts.
  const tooBig = await upload(roomId, owner, { name: 'big.srt', content: b64(Buffer.alloc(2 * 1024 * 1024 + 1, 0x41)) });
  t.is(tooBig.status, 413);
  t.regex(tooBig.body.message, /content is 2097153 bytes, more than the 2097152/);
  const wayTooBig = await upload(roomId, owner, { name: 'big.srt', content: b64(Buffer.alloc(3 * 1024 * 1024, 0x41)) });
  t.is(wayTooBig.status, 413);
  t.is(await fileCount(roomId), 0, 'nothing was stored');

  // 200 files are the most a room keeps: 199 stored directly (uploading them would meet the request rate limits first), then the 200th through the API.
  const small = b64(countingSrt('S', 4));
  await db.query(
    `INSERT INTO subtitle_files (id, room_id, name, format, body, size, created_by)
     SELECT gen_random_uuid(), $1, 'filler.srt', 'srt', 'x', 1, $2 FROM generate_series(1, 199)`,
    [roomId, owner.userId],
  );
  t.is((await upload(roomId, owner, { name: 'last.srt', content: small })).status, 201);
  const over = await upload(roomId, owner, { name: 'one-more.srt', content: small });
  t.is(over.status, 429);
  t.is(over.body.code, 'limit_exceeded');
  t.is(await fileCount(roomId), 200);

  // Deleted with the room.
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}`, undefined, owner.token)).status, 204);
  t.is(await fileCount(roomId), 0);
});

test('a track names one source and a room one default; the message names the field', async (t) => {
  const roomId = await createRoom(bed, owner);
  const add = (subtitles: unknown[]) => bed.call<ErrorBody>('POST', `/api/rooms/${roomId}/playlist`, { title: 'X', url: `${upstream.url}/inside.mkv`, subtitles }, owner.token);
  const twoDefaults = await add([
    { name: 'A', url: `${upstream.url}/movie.srt`, default: true },
    { name: 'B', url: `${upstream.url}/movie.vtt`, default: true },
  ]);
  t.is(twoDefaults.status, 400);
  t.regex(twoDefaults.body.message, /subtitles\.1\.default: only one track can be the default/);
  const twoSources = await add([{ name: 'A', url: `${upstream.url}/movie.srt`, stream: 2 }]);
  t.regex(twoSources.body.message, /subtitles\.0: must have exactly one source/);
  const noSource = await add([{ name: 'A' }]);
  t.regex(noSource.body.message, /subtitles\.0: must have exactly one source/);
  const badFile = await add([{ name: 'A', fileId: 'not-a-file' }]);
  t.regex(badFile.body.message, /subtitles\.0\.fileId: must be the id of a subtitle file/);
  const otherRoom = await createRoom(bed, owner);
  const foreign = await upload(otherRoom, owner, { name: 'a.vtt', content: b64(countingVtt('F')) });
  const mediaId = await addItem(bed, roomId, owner, { url: `${upstream.url}/inside.mkv`, subtitles: [{ name: 'Foreign', fileId: foreign.body.file.id }] });
  const read = await textOf(roomId, mediaId, '0', owner);
  t.is(read.status, 404, 'a file of another room is not readable through this one');
});

test('URL tracks are fetched under the proxy\'s address rules, and an upstream failure is a bad gateway', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, {
    url: `${upstream.url}/inside.mkv`,
    subtitles: [
      { name: 'Metadata', url: 'http://169.254.169.254/latest/meta-data/subs.srt' },
      { name: 'Gone', url: `${upstream.url}/gone.srt` },
    ],
  });
  const metadata = await textOf(roomId, mediaId, '0', owner);
  t.is(metadata.status, 403);
  t.regex(metadata.body.message, /does not connect to 169\.254\.169\.254: it is a linkLocal address/);
  const gone = await textOf(roomId, mediaId, '1', owner);
  t.is(gone.status, 502);
  t.regex(gone.body.message, /HTTP 404/);
});

test('the text streams inside a proxied MKV are listed and extracted (SRT as WebVTT, ASS as ASS); a guest reads them for the current item', async (t) => {
  const roomId = await createRoom(bed, owner);
  const mediaId = await addItem(bed, roomId, owner, { url: `${upstream.url}/inside.mkv`, proxy: true, subtitles: [{ name: 'Styled (room)', stream: 3, default: true }] });
  const tracks = await tracksOf(roomId, mediaId, owner);
  t.deepEqual(tracks, [
    { id: '0', name: 'Styled (room)', format: 'ass', source: 'embedded', default: true },
    { id: 'e2', name: 'eng (embedded)', language: 'eng', format: 'vtt', source: 'embedded', default: false },
  ]);
  const srt = await textOf(roomId, mediaId, 'e2', owner);
  t.is(srt.status, 200, JSON.stringify(srt.body));
  t.is(srt.body.format, 'vtt');
  t.regex(srt.body.text, /^WEBVTT\n/);
  // The file's own timeline (ffmpeg muxed the cues a few ms late, behind Opus' pre-skip): what the player's clock reads.
  t.regex(srt.body.text, /00:02\.0\d\d --> 00:04\.0\d\d\n<i>Inside<\/i> 1/);
  const ass = await textOf(roomId, mediaId, '0', owner);
  t.is(ass.body.format, 'ass');
  t.regex(ass.body.text, /\[Script Info\]/);
  t.regex(ass.body.text, /Style: Loud,Liberation Sans,72,&H00FF00FF/);
  t.regex(ass.body.text, /Dialogue: 0,0:00:00\.0\d,0:00:20\.0\d,Loud,,0,0,0,,INSIDE/);

  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId }, owner.token);
  const gus = await bed.guest('Gus');
  await joinRoom(bed, roomId, gus);
  t.is((await tracksOf(roomId, mediaId, gus)).length, 2);
  t.is((await textOf(roomId, mediaId, 'e2', gus)).body.text, srt.body.text);
  const other = await addItem(bed, roomId, owner, { url: `${upstream.url}/inside.mkv`, proxy: true });
  t.is((await bed.call('GET', `/api/rooms/${roomId}/playlist/${other}/subtitles`, undefined, gus.token)).status, 403, 'not an item the guest may play');

  // Unproxied, the media is the browser's to read: nothing is probed.
  const direct = await addItem(bed, roomId, owner, { url: `${upstream.url}/inside.mkv` });
  t.deepEqual(await tracksOf(roomId, direct, owner), []);
  t.is((await textOf(roomId, direct, 'e2', owner)).status, 404);
});

test('the styled ASS file and a WebVTT one pass as they are', async (t) => {
  const roomId = await createRoom(bed, owner);
  const ass = await upload(roomId, owner, { name: 'styled.ass', content: b64(styledAss()) });
  t.is(ass.body.file.format, 'ass');
  const vtt = await upload(roomId, owner, { name: 'whatever.txt', content: b64(countingVtt('V')) });
  t.is(vtt.body.file.format, 'vtt', 'the WEBVTT header says what it is');
  const mediaId = await addItem(bed, roomId, owner, { url: `${upstream.url}/inside.mkv`, subtitles: [{ name: 'S', fileId: ass.body.file.id }, { name: 'V', fileId: vtt.body.file.id }] });
  t.deepEqual((await tracksOf(roomId, mediaId, owner)).map((track) => track.format), ['ass', 'vtt']);
  t.is((await textOf(roomId, mediaId, '0', owner)).body.text, styledAss());
});
