/**
 * Playlist, playback and chat endpoints over HTTP: every operation's success and refusals,
 * the all-first validation of bulk adds, history paging, and pins. Answers are checked against
 * /api/openapi.json by the bed.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';

let bed: GatewayBed;
let owner: Member;

test.before(async () => {
  bed = await startGatewayBed('http-content');
  await bed.set('server', { maxRoomsPerUser: 100 });
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
});

interface Item {
  id: string;
  title: string;
  url: string;
  addedBy: string;
}
interface Playback {
  mediaId: string | null;
  playing: boolean;
  position: number;
  rate: number;
  updatedAt: number;
  version: number;
}

async function room(...members: Member[]): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Content' }, owner.token);
  for (const member of members) await bed.call('POST', `/api/rooms/${created.body.room.id}/join`, {}, member.token);
  return created.body.room.id;
}

const media = (n: number) => ({ title: `Episode ${n}`, url: `https://media.example.com/e${n}.mp4` });

async function playlist(roomId: string, token = owner.token): Promise<Item[]> {
  return (await bed.call<{ items: Item[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, token)).body.items;
}

test('add at the end and at an index, edit, move, remove, clear', async (t) => {
  const roomId = await room();
  const first = await bed.call<{ item: Item; index: number }>('POST', `/api/rooms/${roomId}/playlist`, media(1), owner.token);
  t.is(first.status, 201);
  t.is(first.body.index, 0);
  await bed.call('POST', `/api/rooms/${roomId}/playlist`, media(2), owner.token);
  const inserted = await bed.call<{ item: Item; index: number }>('POST', `/api/rooms/${roomId}/playlist`, { ...media(3), index: 0 }, owner.token);
  t.is(inserted.body.index, 0);
  t.deepEqual((await playlist(roomId)).map((item) => item.title), ['Episode 3', 'Episode 1', 'Episode 2']);

  const edited = await bed.call<{ item: Item }>('PATCH', `/api/rooms/${roomId}/playlist/${first.body.item.id}`, { title: 'Pilot' }, owner.token);
  t.is(edited.body.item.title, 'Pilot');
  const moved = await bed.call<{ index: number }>('POST', `/api/rooms/${roomId}/playlist/${first.body.item.id}/move`, { toIndex: 2 }, owner.token);
  t.is(moved.body.index, 2);
  t.deepEqual((await playlist(roomId)).map((item) => item.title), ['Episode 3', 'Episode 2', 'Pilot']);

  const removed = await bed.call<{ mediaId: string }>('DELETE', `/api/rooms/${roomId}/playlist/${inserted.body.item.id}`, undefined, owner.token);
  t.is(removed.body.mediaId, inserted.body.item.id);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/playlist/${inserted.body.item.id}`, undefined, owner.token)).status, 404);
  const cleared = await bed.call<{ removed: number }>('DELETE', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.is(cleared.body.removed, 2);
  t.deepEqual(await playlist(roomId), []);
});

test('content rules are the actor\'s: bad URLs and headers are named, nothing is added', async (t) => {
  const roomId = await room();
  const badUrl = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'x', url: 'ftp://example.com/a' }, owner.token);
  t.is(badUrl.status, 400);
  t.is(badUrl.body.issues[0]?.key, 'url');
  const badHeader = await bed.call<{ issues: Array<{ key: string }> }>(
    'POST',
    `/api/rooms/${roomId}/playlist`,
    { ...media(1), headers: { Host: 'evil.example.com' } },
    owner.token,
  );
  t.is(badHeader.status, 400);
  t.regex(badHeader.body.issues[0]?.key ?? '', /^headers\./);
  const missing = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'x' }, owner.token);
  t.deepEqual(missing.body.issues.map((issue) => issue.key), ['url']);
  t.deepEqual(await playlist(roomId), []);
});

test('bulk add validates every item first: one bad item adds nothing; good items are added in order', async (t) => {
  const roomId = await room();
  const bad = await bed.call<{ issues: Array<{ key: string }> }>(
    'POST',
    `/api/rooms/${roomId}/playlist/bulk`,
    { items: [media(1), { title: 'bad', url: 'javascript:alert(1)' }, media(3)] },
    owner.token,
  );
  t.is(bad.status, 400);
  t.deepEqual(bad.body.issues.map((issue) => issue.key), ['items.1.url']);
  t.deepEqual(await playlist(roomId), []);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playlist/bulk`, { items: [] }, owner.token)).status, 400);

  const headers = { 'idempotency-key': 'bulk-1' };
  const good = await bed.call<{ added: Array<{ item: Item; index: number }>; rejected?: unknown }>(
    'POST',
    `/api/rooms/${roomId}/playlist/bulk`,
    { items: [media(1), media(2), media(3)] },
    owner.token,
    headers,
  );
  t.is(good.status, 201);
  t.deepEqual(good.body.added.map((entry) => entry.index), [0, 1, 2]);
  t.is(good.body.rejected, undefined);
  // A retry with the same key adds nothing more.
  const retry = await bed.call<{ added: Array<{ item: Item }> }>('POST', `/api/rooms/${roomId}/playlist/bulk`, { items: [media(1), media(2), media(3)] }, owner.token, headers);
  t.deepEqual(retry.body.added.map((entry) => entry.item.id), good.body.added.map((entry) => entry.item.id));
  t.deepEqual((await playlist(roomId)).map((item) => item.title), ['Episode 1', 'Episode 2', 'Episode 3']);
});

test('members add and edit their own items; curating others\' needs admin permissions; visitors see nothing', async (t) => {
  const ivy = await bed.signUp('ivy');
  const jack = await bed.signUp('jack');
  const stranger = await bed.signUp('stranger');
  const roomId = await room(ivy, jack);
  const mine = await bed.call<{ item: Item }>('POST', `/api/rooms/${roomId}/playlist`, media(1), ivy.token);
  t.is(mine.status, 201);
  t.is(mine.body.item.addedBy, ivy.userId);
  t.is((await bed.call('PATCH', `/api/rooms/${roomId}/playlist/${mine.body.item.id}`, { title: 'Mine' }, ivy.token)).status, 200);
  t.is((await bed.call('PATCH', `/api/rooms/${roomId}/playlist/${mine.body.item.id}`, { title: 'Yours?' }, jack.token)).status, 403);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/playlist/${mine.body.item.id}`, undefined, jack.token)).status, 403);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playlist/${mine.body.item.id}/move`, { toIndex: 0 }, jack.token)).status, 403);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/playlist`, undefined, jack.token)).status, 403);
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: mine.body.item.id }, jack.token)).status, 403);
  t.is((await bed.call('GET', `/api/rooms/${roomId}/playlist`, undefined, stranger.token)).status, 403);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playlist`, media(2), stranger.token)).status, 403);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/playlist/${mine.body.item.id}`, undefined, ivy.token)).status, 200);
});

test('playback: set current, play with sentAt, pause at a position, seek, rate, next, previous, ended; stale guards conflict', async (t) => {
  const kim = await bed.signUp('kim');
  const roomId = await room(kim);
  const nothing = await bed.call<{ code: string }>('POST', `/api/rooms/${roomId}/playback/play`, undefined, owner.token);
  t.is(nothing.status, 409);
  t.is(nothing.body.code, 'conflict');

  const added = await bed.call<{ added: Array<{ item: Item }> }>('POST', `/api/rooms/${roomId}/playlist/bulk`, { items: [media(1), media(2)] }, owner.token);
  const [one, two] = added.body.added.map((entry) => entry.item.id) as [string, string];
  const current = await bed.call<{ playback: Playback }>('PUT', `/api/rooms/${roomId}/playlist/current`, { mediaId: one }, owner.token);
  t.is(current.body.playback.mediaId, one);
  t.false(current.body.playback.playing);

  const time = await bed.call<{ now: number }>('GET', '/api/public/time');
  const played = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/play`, { position: 10, sentAt: time.body.now }, kim.token);
  t.is(played.status, 200);
  t.true(played.body.playback.playing);
  t.true(played.body.playback.position >= 10);

  const scheduled = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/seek`, { position: 20, startInMs: 1500 }, kim.token);
  t.is(scheduled.status, 200);
  t.is(scheduled.body.playback.position, 20, 'a scheduled seek has no transit compensation');
  t.true(scheduled.body.playback.updatedAt >= time.body.now + 1500, 'the start lies ahead in server time');
  const badLead = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playback/play`, { startInMs: 2001 }, kim.token);
  t.is(badLead.status, 400);
  t.is(badLead.body.issues[0]?.key, 'startInMs');

  const paused = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/pause`, { position: 42 }, kim.token);
  t.false(paused.body.playback.playing);
  const playedLater = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/play`, { startInMs: 1000, sentAt: time.body.now }, kim.token);
  t.like(playedLater.body.playback, { playing: true, position: 42 });
  t.true(playedLater.body.playback.updatedAt >= time.body.now + 1000);
  await bed.call('POST', `/api/rooms/${roomId}/playback/pause`, { position: 42 }, kim.token);
  t.is(paused.body.playback.position, 42);
  const sought = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/seek`, { position: 100, expectMediaId: one }, kim.token);
  t.is(sought.body.playback.position, 100);
  const rate = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/rate`, { rate: 1.5 }, kim.token);
  t.is(rate.body.playback.rate, 1.5);

  const stale = await bed.call('POST', `/api/rooms/${roomId}/playback/seek`, { position: 5, expectVersion: current.body.playback.version }, kim.token);
  t.is(stale.status, 409);
  const badRate = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playback/rate`, { rate: 10 }, kim.token);
  t.is(badRate.status, 400);
  t.is(badRate.body.issues[0]?.key, 'rate');
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playback/seek`, undefined, kim.token)).status, 400);

  // Next and previous choose media: set_current_media, which members lack.
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playback/next`, undefined, kim.token)).status, 403);
  const next = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/next`, undefined, owner.token);
  t.is(next.body.playback.mediaId, two);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playback/next`, {}, owner.token)).status, 409);
  const previous = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/previous`, {}, owner.token);
  t.is(previous.body.playback.mediaId, one);

  // The end of an item counts once the room's own clock is there (docs/2026-11-26-queue-modes.md).
  await bed.call('POST', `/api/rooms/${roomId}/playback/seek`, { position: 100 }, kim.token);
  await bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, kim.token);
  const early = await bed.call<{ code: string; message: string }>('POST', `/api/rooms/${roomId}/playback/ended`, { mediaId: one, duration: 600 }, kim.token);
  t.is(early.status, 409);
  t.regex(early.body.message, /of 600 s in the room/);
  const ended = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/ended`, { mediaId: one, duration: 101 }, kim.token);
  t.is(ended.body.playback.mediaId, two);
  const late = await bed.call<{ playback: Playback }>('POST', `/api/rooms/${roomId}/playback/ended`, { mediaId: one }, owner.token);
  t.is(late.body.playback.mediaId, two);

  const state = await bed.call<{ playback: Playback }>('GET', `/api/rooms/${roomId}/playback`, undefined, kim.token);
  t.is(state.body.playback.mediaId, two);
  const stranger = await bed.signUp('stranger');
  t.is((await bed.call('GET', `/api/rooms/${roomId}/playback`, undefined, stranger.token)).status, 403);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, stranger.token)).status, 403);

  // Player reports need a realtime connection in the room.
  const report = await bed.call<{ code: string }>('POST', `/api/rooms/${roomId}/playback/player`, { state: 'ready', mediaId: two }, kim.token);
  t.is(report.status, 409);
  const badReport = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/playback/player`, { state: 'dancing', mediaId: two }, kim.token);
  t.is(badReport.body.issues[0]?.key, 'state');
});

test('chat: send, history pages newest first, delete own or with delete_chat, pin and unpin', async (t) => {
  const lee = await bed.signUp('lee');
  const mo = await bed.signUp('mo');
  const roomId = await room(lee, mo);
  const sent: string[] = [];
  for (let i = 0; i < 5; i++) {
    const answer = await bed.call<{ message: { id: string; text: string }; duplicate: boolean }>('POST', `/api/rooms/${roomId}/chat`, { text: `  message ${i}  ` }, lee.token);
    t.is(answer.status, 201);
    t.is(answer.body.message.text, `message ${i}`);
    sent.push(answer.body.message.id);
  }
  const repeat = await bed.call<{ message: { id: string }; duplicate: boolean }>('POST', `/api/rooms/${roomId}/chat`, { text: 'again', clientMessageId: 'c1' }, lee.token);
  const repeated = await bed.call<{ message: { id: string }; duplicate: boolean }>('POST', `/api/rooms/${roomId}/chat`, { text: 'again', clientMessageId: 'c1' }, lee.token);
  t.true(repeated.body.duplicate);
  t.is(repeated.body.message.id, repeat.body.message.id);
  sent.push(repeat.body.message.id);

  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bed.call<{ messages: Array<{ id: string }>; nextCursor?: string }>(
      'GET',
      `/api/rooms/${roomId}/chat?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      mo.token,
    );
    t.is(page.status, 200);
    seen.push(...page.body.messages.map((message) => message.id));
    cursor = page.body.nextCursor;
  } while (cursor);
  t.deepEqual(seen, [...sent].reverse());

  const blank = await bed.call<{ issues: Array<{ key: string }> }>('POST', `/api/rooms/${roomId}/chat`, { text: ' \n ' }, lee.token);
  t.is(blank.status, 400);
  t.is(blank.body.issues[0]?.key, 'text');
  t.is((await bed.call('GET', `/api/rooms/${roomId}/chat?cursor=abc`, undefined, mo.token)).status, 400);
  t.is((await bed.call('GET', `/api/rooms/${roomId}/chat?cursor=99999999999999999999`, undefined, mo.token)).status, 400);

  // Members pin nothing; the owner pins and unpins.
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/chat/${sent[0]}/pin`, undefined, mo.token)).status, 403);
  const pinned = await bed.call<{ message: { pinned: boolean } }>('PUT', `/api/rooms/${roomId}/chat/${sent[0]}/pin`, undefined, owner.token);
  t.true(pinned.body.message.pinned);
  const pins = await bed.call<{ messages: Array<{ id: string }> }>('GET', `/api/rooms/${roomId}/chat/pins`, undefined, mo.token);
  t.deepEqual(pins.body.messages.map((message) => message.id), [sent[0]]);
  const unpinned = await bed.call<{ message: { pinned: boolean } }>('DELETE', `/api/rooms/${roomId}/chat/${sent[0]}/pin`, undefined, owner.token);
  t.false(unpinned.body.message.pinned);

  // Authors delete their own; others need delete_chat.
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/chat/${sent[1]}`, undefined, mo.token)).status, 403);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/chat/${sent[1]}`, undefined, lee.token)).status, 200);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/chat/${sent[2]}`, undefined, owner.token)).status, 200);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/chat/${sent[2]}`, undefined, owner.token)).status, 404);
  const left = await bed.call<{ messages: Array<{ id: string }> }>('GET', `/api/rooms/${roomId}/chat?limit=100`, undefined, mo.token);
  t.false(left.body.messages.some((message) => message.id === sent[1] || message.id === sent[2]));

  const stranger = await bed.signUp('stranger');
  t.is((await bed.call('GET', `/api/rooms/${roomId}/chat`, undefined, stranger.token)).status, 403);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'hi' }, stranger.token)).status, 403);
});

test.serial('pins beyond chat.maxPinnedMessagesPerRoom are limit_exceeded (429)', async (t) => {
  const roomId = await room();
  const a = await bed.call<{ message: { id: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'a' }, owner.token);
  const b = await bed.call<{ message: { id: string } }>('POST', `/api/rooms/${roomId}/chat`, { text: 'b' }, owner.token);
  await bed.set('chat', { maxPinnedMessagesPerRoom: 1 });
  try {
    t.is((await bed.call('PUT', `/api/rooms/${roomId}/chat/${a.body.message.id}/pin`, undefined, owner.token)).status, 200);
    const over = await bed.call<{ code: string }>('PUT', `/api/rooms/${roomId}/chat/${b.body.message.id}/pin`, undefined, owner.token);
    t.is(over.status, 429);
    t.is(over.body.code, 'limit_exceeded');
  } finally {
    await bed.set('chat', { maxPinnedMessagesPerRoom: 20 });
  }
});
