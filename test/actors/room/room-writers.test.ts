/**
 * The host's group-committed room writes (chat sends, playback saves), against a real
 * database: one statement for writes of many rooms, with each room's fence and each message's
 * idempotency key honoured on its own.
 */
import test from 'ava';
import type pg from 'pg';
import { chatWriter, type ChatSend } from '../../../actors/room/chat/chat-writer.js';
import { playbackWriter } from '../../../actors/room/playback/playback-writer.js';
import type { StoredPlayback } from '../../../actors/room/playback-rows.js';
import { isFencedError } from '../../../actors/runtime/fencing.js';
import { RoomTestBed, nextFence, uid, user, type TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_chat_writer');
});

test.after.always(async () => {
  await bed?.close();
});

/** The pool, counting the statements sent through it. */
function countingPool(pool: pg.Pool): { pool: pg.Pool; statements: () => number } {
  let count = 0;
  const counted = new Proxy(pool, {
    get(target, property) {
      if (property === 'query') {
        return (...args: unknown[]) => {
          count += 1;
          return (target.query as (...a: unknown[]) => unknown).apply(target, args);
        };
      }
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { pool: counted, statements: () => count };
}

function sendOf(room: TestRoom, text: string, commandId = uid('cmd')): ChatSend {
  return {
    fence: { actorType: 'room', actorId: room.ctx.id, fence: room.ctx.fence },
    roomId: room.ctx.id,
    message: { userId: 'alice', name: 'Alice', text, commandId, replyTo: null, mentions: [], createdAt: Date.now() },
  };
}

async function storedTexts(roomId: string): Promise<string[]> {
  const { rows } = await bed.pool.query<{ text: string }>('SELECT text FROM chat_messages WHERE room_id = $1 ORDER BY id', [roomId]);
  return rows.map((row) => row.text);
}

test('chat: sends of many rooms arriving together are committed by one statement, each acknowledged with its own row', async (t) => {
  const rooms = await Promise.all(Array.from({ length: 12 }, () => bed.createRoom(user(uid('owner')))));
  const { pool, statements } = countingPool(bed.pool);
  const writer = chatWriter(pool);
  const stored = await Promise.all(rooms.map((room, i) => writer.write(sendOf(room, `hello ${i}`))));
  t.is(statements(), 1);
  t.is(new Set(stored.map((s) => s.message.id)).size, rooms.length);
  for (const [i, room] of rooms.entries()) {
    t.like(stored[i], { created: true, message: { text: `hello ${i}`, userId: 'alice', name: 'Alice', pinned: false } });
    t.deepEqual(await storedTexts(room.ctx.id), [`hello ${i}`]);
  }
});

test('chat: in one batch, a room taken over by a newer activation gets FencedError and writes nothing; the others commit', async (t) => {
  const owner = user(uid('owner'));
  const [stale, other] = await Promise.all([bed.createRoom(owner), bed.createRoom(owner)]);
  // A newer activation elsewhere claims the room's fence.
  const newer = await bed.activate(stale.ctx.id, { fence: nextFence() });
  const writer = chatWriter(bed.pool);
  const [refused, accepted] = await Promise.allSettled([writer.write(sendOf(stale, 'from the past')), writer.write(sendOf(other, 'now'))]);
  t.true(refused.status === 'rejected' && isFencedError(refused.reason), String(refused.status === 'rejected' && refused.reason));
  t.like(accepted, { status: 'fulfilled', value: { created: true, message: { text: 'now' } } });
  t.deepEqual(await storedTexts(stale.ctx.id), []);
  // The newer activation still writes.
  t.like(await writer.write(sendOf(newer, 'current')), { created: true });
});

test('chat: a repeated idempotency key in a batch answers the message stored first, once', async (t) => {
  const owner = user(uid('owner'));
  const [room, other] = await Promise.all([bed.createRoom(owner), bed.createRoom(owner)]);
  const writer = chatWriter(bed.pool);
  const first = await writer.write(sendOf(room, 'only once', 'cmd:retried'));
  const [again, fresh] = await Promise.all([writer.write(sendOf(room, 'only once', 'cmd:retried')), writer.write(sendOf(other, 'new'))]);
  t.deepEqual(again, { message: first.message, created: false });
  t.like(fresh, { created: true });
  t.deepEqual(await storedTexts(room.ctx.id), ['only once']);
});

test('chat: a send the database refuses fails alone; the rest of its batch is stored', async (t) => {
  const owner = user(uid('owner'));
  const rooms = await Promise.all([bed.createRoom(owner), bed.createRoom(owner), bed.createRoom(owner)]);
  const writer = chatWriter(bed.pool);
  // PostgreSQL text cannot hold NUL; the room actor's validation never lets one through.
  const results = await Promise.allSettled(rooms.map((room, i) => writer.write(sendOf(room, i === 1 ? 'nul \u0000' : `fine ${i}`))));
  t.like(results[0], { status: 'fulfilled', value: { created: true } });
  t.is(results[1]?.status, 'rejected');
  t.like(results[2], { status: 'fulfilled', value: { created: true } });
  t.deepEqual(await storedTexts(rooms[0]?.ctx.id ?? ''), ['fine 0']);
  t.deepEqual(await storedTexts(rooms[1]?.ctx.id ?? ''), []);
  t.deepEqual(await storedTexts(rooms[2]?.ctx.id ?? ''), ['fine 2']);
});

async function storedPlayback(roomId: string): Promise<{ position: number; version: string } | undefined> {
  const { rows } = await bed.pool.query<{ position: number; version: string }>('SELECT position, version FROM room_playback WHERE room_id = $1', [
    roomId,
  ]);
  return rows[0];
}

const playbackAt = (position: number, version: number): StoredPlayback => ({
  mediaId: null,
  playing: false,
  position,
  rate: 1,
  updatedAt: Date.now(),
  version,
  versionReserved: version + 1000,
});

test('playback: saves of many rooms go in one statement; a room taken over keeps what its new owner stored', async (t) => {
  const owner = user(uid('owner'));
  const rooms = await Promise.all(Array.from({ length: 6 }, () => bed.createRoom(owner)));
  const stale = rooms[0] as TestRoom;
  await bed.activate(stale.ctx.id, { fence: nextFence() });
  const before = await storedPlayback(stale.ctx.id);

  const { pool, statements } = countingPool(bed.pool);
  const writer = playbackWriter(pool);
  const results = await Promise.allSettled(
    rooms.map((room, i) => writer.write({ fence: { actorType: 'room', actorId: room.ctx.id, fence: room.ctx.fence }, roomId: room.ctx.id, playback: playbackAt(100 + i, 5_000 + i) })),
  );
  t.is(statements(), 1);
  t.true(results[0]?.status === 'rejected' && isFencedError(results[0].reason));
  t.deepEqual(await storedPlayback(stale.ctx.id), before);
  for (const [i, room] of rooms.entries()) {
    if (i === 0) continue;
    t.is(results[i]?.status, 'fulfilled');
    t.deepEqual(await storedPlayback(room.ctx.id), { position: 100 + i, version: String(5_000 + i) });
  }
});
