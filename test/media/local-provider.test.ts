/**
 * The `local` provider (a file on each viewer's own disk): its item URL is checked precisely,
 * each refusal naming `url` (or the header), through the provider and through the whole
 * service, where a refused add writes nothing; its play answer names the file to pick and
 * offers no source, and nothing of the file is ever fetched (no upstream to resolve).
 */
import test from 'ava';
import { localFileUrl, parseLocalFileUrl } from '../../contracts/room/local-file.js';
import { localProvider } from '../../media/providers/local.js';
import type { GatewayBed, Member } from '../gateways/bed.js';
import { addItem, createRoom, join, startMediaBed } from './media-bed.js';

const FINGERPRINT = 'ab'.repeat(32);
const good = { fingerprint: FINGERPRINT, size: 734_003_200, name: 'Film: the cut (2024) — 1080p.mkv' };

let bed: GatewayBed;
let owner: Member;
let friend: Member;
let roomId: string;

test.before(async () => {
  bed = await startMediaBed('media-local');
  [owner, friend] = await Promise.all([bed.signUp('owner'), bed.signUp('friend')]);
  roomId = await createRoom(bed, owner);
  await join(bed, roomId, friend);
});
test.after.always(async () => {
  await bed?.close();
});

const problemOf = (url: string): string => {
  const issues = localProvider.check!({ url, headers: {} });
  if (issues.length !== 1 || issues[0]!.key !== 'url') throw new Error(`expected one issue naming url for ${url}, got ${JSON.stringify(issues)}`);
  return issues[0]!.message;
};

test('a reference names the file by fingerprint, size and name, the name percent-encoded (colons included), and reads back the same', (t) => {
  const url = localFileUrl(good);
  t.is(url, `local:${FINGERPRINT}:734003200:Film%3A%20the%20cut%20(2024)%20%E2%80%94%201080p.mkv`);
  t.deepEqual(parseLocalFileUrl(url), { ref: good });
  t.deepEqual(localProvider.check!({ url, headers: {} }), []);
});

test('check: every malformed reference is refused naming url, with what is wrong', (t) => {
  t.regex(problemOf('https://example.com/film.mkv'), /must be a local file reference \(local:<fingerprint>:<size>:<name>\)/);
  t.regex(problemOf(`local:${FINGERPRINT}:12`), /got 2 of its 3 parts/);
  t.regex(problemOf(`local:${'ab'.repeat(31)}:12:a.mkv`), /64 lowercase hex digits \(SHA-256\), got 62 characters/);
  t.regex(problemOf(`local:${'AB'.repeat(32)}:12:a.mkv`), /64 lowercase hex digits/);
  for (const size of ['0', '-5', '012', '1.5', '1e6', '', '9007199254740993']) {
    t.regex(problemOf(`local:${FINGERPRINT}:${size}:a.mkv`), /must give the file's size as a positive whole number of bytes/, `size ${size}`);
  }
  t.regex(problemOf(`local:${FINGERPRINT}:12:`), /the name is empty/);
  t.regex(problemOf(`local:${FINGERPRINT}:12:%20%20`), /the name is empty/);
  t.regex(problemOf(`local:${FINGERPRINT}:12:a:b.mkv`), /percent-encoded/);
  t.regex(problemOf(`local:${FINGERPRINT}:12:%E0%A4%A`), /percent-encoded/);
  t.regex(problemOf(`local:${FINGERPRINT}:12:${'x'.repeat(256)}`), /at most 255 characters/);
  t.regex(problemOf(`local:${FINGERPRINT}:12:a%0Ab.mkv`), /without control characters/);
  t.deepEqual(localProvider.check!({ url: `local:${FINGERPRINT}:12:${'é'.repeat(255)}`, headers: {} }), [], '255 characters, not bytes');
  t.deepEqual(
    localProvider.check!({ url: localFileUrl(good), headers: { Authorization: 'x' } }).map((issue) => issue.key),
    ['headers.Authorization'],
  );
});

test.serial('through the service: a malformed reference is refused naming url and nothing is added; a good one is stored as given', async (t) => {
  const bad = await bed.call<{ code: string; issues: Array<{ key: string; message: string }> }>(
    'POST',
    `/api/rooms/${roomId}/playlist`,
    { title: 'Film', provider: 'local', url: `local:${FINGERPRINT}:0:film.mkv` },
    owner.token,
  );
  t.is(bad.status, 400);
  t.is(bad.body.code, 'invalid_argument');
  t.deepEqual(
    bad.body.issues.map((issue) => issue.key),
    ['url'],
  );
  t.regex(bad.body.issues[0]!.message, /size as a positive whole number/);
  const notLocal = await bed.call<{ issues: Array<{ key: string; message: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Film', provider: 'local', url: 'https://example.com/film.mkv' }, owner.token);
  t.is(notLocal.status, 400);
  t.deepEqual(notLocal.body.issues.map((issue) => `${issue.key}: ${issue.message}`), ['url: must be a local file reference (local:<fingerprint>:<size>:<name>)']);
  // A local reference is no URL for the other providers.
  const direct = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Film', provider: 'direct', url: localFileUrl(good) }, owner.token);
  t.is(direct.status, 400);
  t.deepEqual(direct.body.issues.map((issue) => issue.key), ['url']);
  const before = await bed.call<{ items: unknown[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.deepEqual(before.body.items, [], 'nothing was added');

  const id = await addItem(bed, roomId, owner, { title: 'Film', provider: 'local', url: localFileUrl(good) });
  const after = await bed.call<{ items: Array<{ id: string; url: string; provider: string; seekable: string; proxy: boolean }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.like(after.body.items.find((item) => item.id === id), { url: localFileUrl(good), provider: 'local', seekable: 'yes', proxy: false });
});

test.serial('play: the answer names the file to pick (fingerprint, size, name) and offers no source, to every member', async (t) => {
  const id = await addItem(bed, roomId, owner, { title: 'Other film', provider: 'local', url: localFileUrl({ ...good, name: 'other.mp4', size: 5 }) });
  await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: id }, owner.token);
  for (const member of [owner, friend]) {
    const answer = await bed.call('GET', `/api/rooms/${roomId}/playlist/${id}/play`, undefined, member.token);
    t.is(answer.status, 200);
    t.deepEqual(answer.body, { sources: [], local: { fingerprint: FINGERPRINT, size: 5, name: 'other.mp4' }, subtitles: [], live: false, proxied: false, expiresAt: null });
  }
  // There is nothing upstream: a resolution is refused in words, never attempted.
  await t.throwsAsync(localProvider.resolve({ id } as never, { refresh: false, signal: new AbortController().signal, roomId }), { message: /no upstream to fetch/ });
});
