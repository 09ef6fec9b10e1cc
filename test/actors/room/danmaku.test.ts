/**
 * Danmaku: a room option; a comment is pinned to where the sender is (the current item, near the
 * room's clock), stored per item (bounded), published live and listed by position for later
 * viewers; the text rules and permission of chat.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import { RoomTestBed, TestClock, addMember, media, rejects, uid, user, type TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_danmaku');
});

test.after.always(async () => {
  await bed?.close();
});

/** A room with danmaku on, items A and B, A current and playing from 0, on its own clock. */
async function watching(danmaku = true): Promise<{ room: TestRoom; owner: Caller; viewer: Caller; clock: TestClock; ids: string[] }> {
  const clock = new TestClock();
  const owner = user(uid('owner'), 'Owner');
  const viewer = user(uid('viewer'), 'Viewer');
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public', settings: { danmaku } });
  await addMember(room, viewer);
  const ids: string[] = [];
  for (const title of ['A', 'B']) ids.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item.id);
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: ids[0] as string });
  await room.send(owner, { kind: 'playback.play' });
  return { room, owner, viewer, clock, ids };
}

test('a comment at the room position is stored, published and listed by position for later viewers', async (t) => {
  const { room, owner, viewer, clock, ids } = await watching();
  clock.advance(30_000);
  const { comment } = await room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 29.5, text: '  what a shot  ' });
  t.like(comment, { mediaId: ids[0], position: 29.5, userId: viewer.userId, name: 'Viewer', text: 'what a shot' });
  t.deepEqual(room.lastEvent('danmaku'), { type: 'danmaku', comment });
  await room.send(owner, { kind: 'playback.seek', position: 5 });
  const early = (await room.send(owner, { kind: 'danmaku.send', mediaId: ids[0]!, position: 6, text: 'early' })).comment;
  const { comments } = await room.send(viewer, { kind: 'danmaku.list', mediaId: ids[0]! });
  t.deepEqual(comments, [early, comment], 'by position, not by when they were sent');
  t.deepEqual((await room.send(viewer, { kind: 'danmaku.list', mediaId: ids[1]! })).comments, []);
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM danmaku WHERE room_id = $1', [room.id]);
  t.is(rows[0]?.n, 2);
});

test('a comment must be on the current item and near the room clock; bad input writes nothing', async (t) => {
  const { room, viewer, clock, ids } = await watching();
  clock.advance(60_000);
  const tolerance = ROOM_LIMITS.danmakuPositionToleranceSeconds;
  const other = await rejects(t, room.send(viewer, { kind: 'danmaku.send', mediaId: ids[1]!, position: 60, text: 'hi' }), 'invalid_argument', /item playing now/);
  t.is(other.issues[0]?.key, 'mediaId');
  for (const position of [60 - tolerance - 1, 60 + tolerance + 1, 0]) {
    const err = await rejects(t, room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position, text: 'hi' }), 'invalid_argument', /within/);
    t.is(err.issues[0]?.key, 'position', String(position));
  }
  await t.notThrowsAsync(room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 60 + tolerance - 0.5, text: 'at the edge' }));
  for (const text of ['x'.repeat(ROOM_LIMITS.danmakuMaxChars + 1), '   ', 'two\nlines', 'bell\u0007']) {
    const err = await rejects(t, room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 60, text }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'text', JSON.stringify(text));
  }
  await t.notThrowsAsync(room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 60, text: '🎬'.repeat(ROOM_LIMITS.danmakuMaxChars) }));
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM danmaku WHERE room_id = $1', [room.id]);
  t.is(rows[0]?.n, 2, 'only the two good comments');
});

test('danmaku is a room option, off by default; sending needs send_chat', async (t) => {
  const { room, owner, viewer, ids } = await watching(false);
  t.like(await room.send(owner, { kind: 'room.get' }), { access: 'member', room: { danmaku: false } });
  await rejects(t, room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 0, text: 'hi' }), 'forbidden', /danmaku is off/);
  t.true((await room.send(owner, { kind: 'room.update', danmaku: true })).room.danmaku);
  await t.notThrowsAsync(room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 0, text: 'hi' }));
  await room.send(owner, { kind: 'room.update', permissionOverrides: { member: ['view_chat_history'] } });
  await rejects(t, room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 0, text: 'hi' }), 'forbidden', /send_chat/);
});

test(`an item keeps its newest ${ROOM_LIMITS.danmakuPerItemMax} comments`, async (t) => {
  const { room, viewer, ids } = await watching();
  // Rows straight in: a thousand sends through the actor would only slow the test down.
  await bed.pool.query(
    `INSERT INTO danmaku (room_id, media_id, position, user_id, name, text)
     SELECT $1, $2, 0, $3, 'Viewer', 'old ' || n FROM generate_series(1, $4::int) AS n`,
    [room.id, ids[0], viewer.userId, ROOM_LIMITS.danmakuPerItemMax],
  );
  await room.send(viewer, { kind: 'danmaku.send', mediaId: ids[0]!, position: 0, text: 'newest' });
  const { comments } = await room.send(viewer, { kind: 'danmaku.list', mediaId: ids[0]! });
  t.is(comments.length, ROOM_LIMITS.danmakuPerItemMax);
  t.true(comments.some((comment) => comment.text === 'newest'));
  t.false(comments.some((comment) => comment.text === 'old 1'), 'the oldest went first');
});
