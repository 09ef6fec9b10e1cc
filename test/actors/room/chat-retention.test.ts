import test from 'ava';
import { runChatRetention } from '../../../actors/room/index.js';
import { RoomTestBed, logger, uid, user } from './fixtures.js';

// Retention reads global settings and sweeps the whole table: every test here is serial.
let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_chat_retention');
});

test.after.always(async () => {
  await bed?.close();
});

test.afterEach.always(async () => {
  await bed.pool.query('DELETE FROM chat_messages');
});

/** A room row and `count` messages `t0..`, oldest first, written straight to the table. */
async function seedRoom(count: number, options: { ageDays?: number; pinned?: number[] } = {}): Promise<{ roomId: string; ids: string[] }> {
  const roomId = uid('room');
  await bed.pool.query(
    "INSERT INTO rooms (id, name, owner_id, visibility, status) VALUES ($1, 'seeded', 'seeder', 'public', 'active') ON CONFLICT DO NOTHING",
    [roomId],
  );
  const { rows } = await bed.pool.query<{ id: string }>(
    `INSERT INTO chat_messages (room_id, user_id, name, text, pinned, created_at)
     SELECT $1, 'seeder', 'Seeder', 't' || i, i = ANY($3::int[]), now() - make_interval(days => $4) + i * interval '1 ms'
     FROM generate_series(0, $2::int - 1) AS i ORDER BY i
     RETURNING id`,
    [roomId, count, options.pinned ?? [], options.ageDays ?? 0],
  );
  return { roomId, ids: rows.map((row) => row.id).sort((a, b) => Number(a) - Number(b)) };
}

async function texts(roomId: string): Promise<string[]> {
  const { rows } = await bed.pool.query<{ text: string; pinned: boolean }>(
    'SELECT text, pinned FROM chat_messages WHERE room_id = $1 ORDER BY id',
    [roomId],
  );
  return rows.map((row) => (row.pinned ? `${row.text}*` : row.text));
}

test.serial('the count cap keeps the newest unpinned messages of each room; pins do not count; 0 is no cap', async (t) => {
  const big = await seedRoom(8, { pinned: [0, 5] });
  const small = await seedRoom(3);
  await bed.withSettings('chat', { maxMessagesPerRoom: 3 }, async () => {
    const result = await runChatRetention(bed.pool, bed.settings, logger);
    t.deepEqual(result, { deleted: 3, unpinned: 0 });
  });
  t.deepEqual(await texts(big.roomId), ['t0*', 't4', 't5*', 't6', 't7']);
  t.deepEqual(await texts(small.roomId), ['t0', 't1', 't2'], 'a room at the cap keeps everything');

  await bed.withSettings('chat', { maxMessagesPerRoom: 0 }, async () => {
    t.deepEqual(await runChatRetention(bed.pool, bed.settings, logger), { deleted: 0, unpinned: 0 });
  });
});

test.serial('nothing older than chat.messageRetentionDays is kept, pinned or not', async (t) => {
  const old = await seedRoom(3, { ageDays: 31, pinned: [1] });
  const recent = await seedRoom(2, { ageDays: 29 });
  await bed.withSettings('chat', { messageRetentionDays: 30 }, async () => {
    t.deepEqual(await runChatRetention(bed.pool, bed.settings, logger), { deleted: 3, unpinned: 0 });
  });
  t.deepEqual(await texts(old.roomId), []);
  t.deepEqual(await texts(recent.roomId), ['t0', 't1']);
});

test.serial('pins beyond chat.maxPinnedMessagesPerRoom are unpinned, oldest first', async (t) => {
  const room = await seedRoom(6, { pinned: [0, 1, 2, 3] });
  await bed.withSettings('chat', { maxPinnedMessagesPerRoom: 2 }, async () => {
    t.deepEqual(await runChatRetention(bed.pool, bed.settings, logger), { deleted: 0, unpinned: 2 });
  });
  t.deepEqual(await texts(room.roomId), ['t0', 't1', 't2*', 't3*', 't4', 't5']);
  await bed.withSettings('chat', { maxPinnedMessagesPerRoom: 0 }, async () => {
    t.deepEqual(await runChatRetention(bed.pool, bed.settings, logger), { deleted: 0, unpinned: 2 });
  });
  t.deepEqual(await texts(room.roomId), ['t0', 't1', 't2', 't3', 't4', 't5']);
});

test.serial('messages sent through the room are subject to retention like any other', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  for (let i = 0; i < 4; i += 1) await room.send(alice, { kind: 'chat.send', text: `m${i}` });
  await bed.withSettings('chat', { maxMessagesPerRoom: 2 }, async () => {
    await runChatRetention(bed.pool, bed.settings, logger);
  });
  const history = await room.send(alice, { kind: 'chat.history' });
  t.deepEqual(history.messages.map((m) => m.text), ['m3', 'm2']);
});

test.serial('two runs at once split the work: everything due is deleted exactly once', async (t) => {
  const rooms = [];
  for (let i = 0; i < 20; i += 1) rooms.push(await seedRoom(40, { pinned: [0] }));
  // More expired rows than one deletion batch, so both runs take several batches.
  const expired = [];
  for (let i = 0; i < 3; i += 1) expired.push(await seedRoom(4000, { ageDays: 100 }));

  await bed.withSettings('chat', { maxMessagesPerRoom: 10, messageRetentionDays: 30 }, async () => {
    const [a, b] = await Promise.all([
      runChatRetention(bed.pool, bed.settings, logger),
      runChatRetention(bed.pool, bed.settings, logger),
    ]);
    // 12000 expired, plus 29 unpinned beyond the newest 10 in each of 20 rooms.
    t.is(a.deleted + b.deleted, 12_000 + 20 * 29, `runs deleted ${a.deleted} and ${b.deleted}`);
    t.deepEqual(await runChatRetention(bed.pool, bed.settings, logger), { deleted: 0, unpinned: 0 }, 'nothing left for a third run');
  });
  for (const room of rooms) {
    t.deepEqual(await texts(room.roomId), ['t0*', ...Array.from({ length: 10 }, (_, i) => `t${30 + i}`)]);
  }
  for (const room of expired) t.deepEqual(await texts(room.roomId), []);
});
