import test from 'ava';
import type { ChatMessage } from '../../../contracts/room/model.js';
import { loadRecentCommands, purgeExpiredCommands } from '../../../actors/runtime/command-log.js';
import { RoomTestBed, addMember, media, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

// A durable command whose activation ended while it ran (a drain, a host stalled past its lease)
// is retried by its client with the same command id, and the retry reaches the next activation.
// It must take effect once and answer what the first execution answered.

let bed: RoomTestBed;
test.before(async () => {
  bed = await RoomTestBed.start('room_exactly_once');
});
test.after.always(async () => {
  await bed.close();
});

/** The same room on another host, after the first activation ended without telling anyone. */
async function failover(room: TestRoom): Promise<TestRoom> {
  room.abandon();
  return bed.activate(room.id, { type: bed.otherHost() });
}

async function playlistRows(roomId: string): Promise<number> {
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM room_playlist WHERE room_id = $1', [roomId]);
  return rows[0]?.n ?? -1;
}

test('a retried playlist.push reaching a new activation answers the original item and adds no second row', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const first = await room.send(owner, { kind: 'playlist.push', ...media('Once') }, { commandId: 'push-1' });
  const next = await failover(room);
  const retry = await next.send(owner, { kind: 'playlist.push', ...media('Once') }, { commandId: 'push-1' });
  t.deepEqual(retry, first, 'the retry gets the original answer');
  t.is(await playlistRows(room.id), 1);
  const view = await next.send(owner, { kind: 'room.get' });
  t.deepEqual(view.access === 'member' ? view.playlist?.map((item) => item.id) : [], [first.item.id]);
});

test('a retried playback.next moves on once, not twice', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const items = [];
  for (const title of ['A', 'B', 'C']) items.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item);
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: items[0]?.id as string });
  const first = await room.send(owner, { kind: 'playback.next' }, { commandId: 'next-1' });
  t.is(first.playback.mediaId, items[1]?.id ?? null);
  const next = await failover(room);
  const retry = await next.send(owner, { kind: 'playback.next' }, { commandId: 'next-1' });
  t.deepEqual(retry, first);
  const view = await next.send(owner, { kind: 'room.get' });
  t.is(view.access === 'member' ? view.playback.mediaId : null, items[1]?.id ?? null, 'still on B, not skipped to C');
});

test('a retried chat.delete and member.kick answer as the first time, not not_found', async (t) => {
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(owner);
  await addMember(room, bob);
  const { message } = (await room.send(owner, { kind: 'chat.send', text: 'oops' })) as { message: ChatMessage };
  const deleted = await room.send(owner, { kind: 'chat.delete', messageId: message.id }, { commandId: 'delete-1' });
  const kicked = await room.send(owner, { kind: 'member.kick', userId: bob.userId }, { commandId: 'kick-1' });
  const next = await failover(room);
  t.deepEqual(await next.send(owner, { kind: 'chat.delete', messageId: message.id }, { commandId: 'delete-1' }), deleted);
  t.deepEqual(await next.send(owner, { kind: 'member.kick', userId: bob.userId }, { commandId: 'kick-1' }), kicked);
});

test('when the reply is no longer in memory, the command log still refuses a second application and answers the first', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const first = await room.send(owner, { kind: 'playlist.push', ...media('Twice?') }, { commandId: 'push-evicted' });
  // The test room keeps no replies of its own: the same id runs the handler again, as after an eviction.
  const again = await room.send(owner, { kind: 'playlist.push', ...media('Twice?') }, { commandId: 'push-evicted' });
  t.deepEqual(again, first);
  t.is(await playlistRows(room.id), 1);
  t.is(room.events('playlist').length, 1, 'the refused second run published nothing');
});

test('a new command id is a new command: pushing the same media twice on purpose adds it twice', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('Again') });
  await room.send(owner, { kind: 'playlist.push', ...media('Again') });
  t.is(await playlistRows(room.id), 2);
});

test('the command log keeps a reply only while a retry may still ask for it; the purge removes the rest', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('Kept') }, { commandId: 'kept' });
  await bed.pool.query(
    `INSERT INTO actor_commands (actor_type, actor_id, command_id, reply, expires_at) VALUES ('room', $1, 'expired', '{}', now() - interval '1 second')`,
    [room.id],
  );
  t.true((await purgeExpiredCommands(bed.pool)) >= 1);
  const { rows } = await bed.pool.query<{ command_id: string }>('SELECT command_id FROM actor_commands WHERE actor_id = $1 ORDER BY command_id', [room.id]);
  t.deepEqual(rows.map((row) => row.command_id), ['kept']);
  const loaded = await loadRecentCommands(bed.pool, 'room', room.id);
  t.deepEqual(loaded.map((entry) => entry.commandId), ['kept']);
});
