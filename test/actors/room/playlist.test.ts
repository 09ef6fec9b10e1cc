import test from 'ava';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import { RoomTestBed, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_playlist');
});

test.after.always(async () => {
  await bed?.close();
});

/** Titles as `owner` sees them. */
async function titles(room: TestRoom, owner: Caller): Promise<string[]> {
  const view = await room.send(owner, { kind: 'room.get' });
  return view.access === 'member' ? (view.playlist ?? []).map((item) => item.title) : [];
}

async function storedTitles(roomId: string): Promise<string[]> {
  const { rows } = await bed.pool.query<{ title: string }>('SELECT title FROM room_playlist WHERE room_id = $1 ORDER BY sort_key, media_id', [
    roomId,
  ]);
  return rows.map((row) => row.title);
}

test('push, insert, move and remove keep one order in memory, in events and in PostgreSQL', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const a = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  t.is(a.index, 0);
  await room.send(owner, { kind: 'playlist.push', ...media('C') });
  const b = await room.send(owner, { kind: 'playlist.insert', index: 1, ...media('B') });
  t.is(b.index, 1);
  await room.send(owner, { kind: 'playlist.insert', index: 0, ...media('Z') });
  t.deepEqual(await titles(room, owner), ['Z', 'A', 'B', 'C']);
  t.like(room.lastEvent('playlist'), { op: 'added', index: 0, item: { title: 'Z', addedBy: owner.userId } });

  await room.send(owner, { kind: 'playlist.move', mediaId: a.item.id, toIndex: 3 });
  t.deepEqual(await titles(room, owner), ['Z', 'B', 'C', 'A']);
  t.like(room.lastEvent('playlist'), { op: 'moved', mediaId: a.item.id, toIndex: 3 });
  await room.send(owner, { kind: 'playlist.remove', mediaId: b.item.id });
  t.like(room.lastEvent('playlist'), { op: 'removed', mediaId: b.item.id });
  t.deepEqual(await titles(room, owner), ['Z', 'C', 'A']);
  t.deepEqual(await storedTitles(room.id), ['Z', 'C', 'A']);

  room.abandon();
  const reloaded = await bed.activate(room.id);
  t.deepEqual(await titles(reloaded, owner), ['Z', 'C', 'A'], 'a new activation loads the same order');

  await rejects(t, reloaded.send(owner, { kind: 'playlist.insert', index: 4, ...media('X') }), 'invalid_argument', /index/);
  await rejects(t, reloaded.send(owner, { kind: 'playlist.move', mediaId: a.item.id, toIndex: 3 }), 'invalid_argument', /toIndex/);
  await rejects(t, reloaded.send(owner, { kind: 'playlist.remove', mediaId: 'nope' }), 'not_found');
});

test('inserting many times at one spot renumbers the list and keeps the order', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('first') });
  await room.send(owner, { kind: 'playlist.push', ...media('last') });
  const expected = ['first'];
  // Each insert lands between 'first' and the previous insert: the gap halves every time.
  for (let i = 0; i < 14; i += 1) {
    await room.send(owner, { kind: 'playlist.insert', index: 1, ...media(`n${i}`) });
    expected.splice(1, 0, `n${i}`);
  }
  expected.push('last');
  t.deepEqual(await titles(room, owner), expected);
  t.deepEqual(await storedTitles(room.id), expected);
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(DISTINCT sort_key)::int AS n FROM room_playlist WHERE room_id = $1', [room.id]);
  t.is(rows[0]?.n, expected.length, 'no two items share a key');
});

test(`the playlist holds at most ${ROOM_LIMITS.playlistMaxItems} items`, async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await bed.pool.query(
    `INSERT INTO room_playlist (room_id, media_id, sort_key, title, url, provider, added_by)
     SELECT $1, 'seed-' || i, i * 1024, 'seed ' || i, 'https://media.example.com/' || i, 'direct', $2
     FROM generate_series(1, $3::int) AS i`,
    [room.id, owner.userId, ROOM_LIMITS.playlistMaxItems - 1],
  );
  room.abandon();
  const reloaded = await bed.activate(room.id);
  await reloaded.send(owner, { kind: 'playlist.push', ...media('the last one that fits') });
  await rejects(t, reloaded.send(owner, { kind: 'playlist.push', ...media('one too many') }), 'limit_exceeded', /at most 500/);
  await rejects(t, reloaded.send(owner, { kind: 'playlist.insert', index: 0, ...media('one too many') }), 'limit_exceeded');
});

test('media items are validated field by field', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const cases: Array<[Record<string, unknown>, string]> = [
    [{ url: 'ftp://media.example.com/a.mp4' }, 'url'],
    [{ url: 'javascript:alert(1)' }, 'url'],
    [{ url: 'not a url' }, 'url'],
    [{ url: `https://media.example.com/${'a'.repeat(ROOM_LIMITS.urlMaxChars)}` }, 'url'],
    [{ title: '   ' }, 'title'],
    [{ title: 'x'.repeat(ROOM_LIMITS.titleMaxChars + 1) }, 'title'],
    [{ provider: 'Not Valid!' }, 'provider'],
    [{ headers: { 'Bad Header': 'x' } }, 'headers.Bad Header'],
    [{ headers: { Referer: 'a\r\nX-Injected: 1' } }, 'headers.Referer'],
    [{ headers: { Host: 'evil.example.com' } }, 'headers.Host'],
    [{ subtitles: [{ name: 'English', url: 'file:///etc/passwd' }] }, 'subtitles.0.url'],
    [{ subtitles: [{ name: 'English', url: 'https://subs.example.com/en.vtt', language: 'english!' }] }, 'subtitles.0.language'],
  ];
  for (const [fields, key] of cases) {
    const err = await rejects(t, room.sendRaw(owner, { kind: 'playlist.push', ...media('T'), ...fields }), 'invalid_argument');
    t.is(err.issues[0]?.key, key, JSON.stringify(fields));
  }
  t.deepEqual(await titles(room, owner), [], 'nothing invalid was added');

  const { item } = await room.send(owner, {
    kind: 'playlist.push',
    title: '  Live match  ',
    url: 'https://live.example.com/stream.m3u8',
    provider: 'live',
    headers: { Referer: 'https://example.com/', 'User-Agent': 'svc' },
    subtitles: [{ name: 'English', url: 'https://subs.example.com/en.vtt', language: 'en' }],
  });
  t.like(item, { title: 'Live match', provider: 'live', live: true, proxy: false, headers: { Referer: 'https://example.com/' } });
  const custom = await room.send(owner, { kind: 'playlist.push', ...media('Custom', { provider: 'bilibili' }) });
  t.like(custom.item, { provider: 'bilibili', live: false });
});

test.serial('proxied items need the matching proxy switch on', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await bed.withSettings('proxy', { movieProxy: false }, async () => {
    await rejects(t, room.send(owner, { kind: 'playlist.push', ...media('Proxied', { proxy: true }) }), 'forbidden', /proxy\.movieProxy/);
    await t.notThrowsAsync(room.send(owner, { kind: 'playlist.push', ...media('Live', { proxy: true, provider: 'live' }) }));
  });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('Proxied', { proxy: true }) });
  t.true(item.proxy);
});

test('edit changes only the given fields and is published', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('Old', { headers: { Referer: 'https://a.example.com/' } }) });
  const edited = await room.send(owner, { kind: 'playlist.edit', mediaId: item.id, title: 'New', subtitles: [{ name: 'Deutsch', url: 'https://s.example.com/de.vtt', language: 'de' }] });
  t.like(edited.item, { id: item.id, title: 'New', url: item.url, headers: { Referer: 'https://a.example.com/' } });
  t.is(edited.item.subtitles.length, 1);
  t.deepEqual(room.lastEvent('playlist'), { type: 'playlist', op: 'edited', item: edited.item });
  room.abandon();
  const reloaded = await bed.activate(room.id);
  const view = await reloaded.send(owner, { kind: 'room.get' });
  t.deepEqual(view.access === 'member' ? view.playlist?.[0] : undefined, edited.item);
});

test('removing the current item or clearing the list stops playback with nothing selected', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await room.send(owner, { kind: 'playlist.push', ...media('B') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  await room.send(owner, { kind: 'playback.play' });
  await room.send(owner, { kind: 'playlist.remove', mediaId: item.id });
  t.like(room.lastEvent('playback'), { cause: 'playlist.remove', playback: { mediaId: null, playing: false, position: 0 } });

  const second = (await room.send(owner, { kind: 'room.get' })) as { playlist?: Array<{ id: string }> };
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: second.playlist?.[0]?.id as string });
  const cleared = await room.send(owner, { kind: 'playlist.clear' });
  t.is(cleared.removed, 1);
  t.like(room.lastEvent('playlist'), { op: 'cleared' });
  t.like(room.lastEvent('playback'), { cause: 'playlist.clear', playback: { mediaId: null } });
  t.deepEqual(await storedTitles(room.id), []);
  t.deepEqual(await room.send(owner, { kind: 'playlist.clear' }), { removed: 0 });
});

test('setCurrent cues the item paused at its start', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  await rejects(t, room.send(owner, { kind: 'playlist.setCurrent', mediaId: 'missing' }), 'not_found');
  const { playback } = await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  t.like(playback, { mediaId: item.id, playing: false, position: 0 });
  t.like(room.lastEvent('playback'), { cause: 'playlist.setCurrent', by: owner.userId, playback: { mediaId: item.id } });
});

test('a failed write changes nothing in memory', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('A') });
  // Make the next insert fail inside PostgreSQL, after the actor has planned it.
  await bed.pool.query(`ALTER TABLE room_playlist ADD CONSTRAINT test_no_b_${room.id.replace(/-/g, '_')} CHECK (room_id <> '${room.id}' OR title <> 'B')`);
  try {
    await t.throwsAsync(room.send(owner, { kind: 'playlist.push', ...media('B') }));
  } finally {
    await bed.pool.query(`ALTER TABLE room_playlist DROP CONSTRAINT test_no_b_${room.id.replace(/-/g, '_')}`);
  }
  t.deepEqual(await titles(room, owner), ['A']);
  t.is(room.events('playlist').length, 1, 'only the successful push was published');
  await room.send(owner, { kind: 'playlist.push', ...media('B') });
  t.deepEqual(await titles(room, owner), ['A', 'B']);
});
