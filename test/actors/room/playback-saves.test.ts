import test from 'ava';
import type { MediaItem, MemberRoomView } from '../../../contracts/room/model.js';
import { RoomTestBed, media, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';

// Playback saves that fail: a failed command leaves the room exactly as it was, and an
// acknowledged change whose lazy save failed is saved later rather than forgotten. Failures
// are made inside PostgreSQL with a CHECK constraint on the room's rows, after the actor has
// planned its write (the real-outage versions are in test/actors/room/room-durability.test.ts).

let bed: RoomTestBed;
test.before(async () => {
  bed = await RoomTestBed.start('room_playback_saves');
});
test.after.always(async () => {
  await bed.close();
});

/** Runs `fn` while `room_playback` refuses rows of `roomId` matching `refuse` (SQL over its columns). */
async function whilePlaybackRefuses<T>(roomId: string, refuse: string, fn: () => Promise<T>): Promise<T> {
  const name = `test_refuse_${roomId.replace(/-/g, '_')}`;
  await bed.pool.query(`ALTER TABLE room_playback ADD CONSTRAINT ${name} CHECK (room_id <> '${roomId}' OR NOT (${refuse})) NOT VALID`);
  try {
    return await fn();
  } finally {
    await bed.pool.query(`ALTER TABLE room_playback DROP CONSTRAINT ${name}`);
  }
}

async function view(room: TestRoom, caller: Caller): Promise<MemberRoomView> {
  return (await room.send(caller, { kind: 'room.get' })) as MemberRoomView;
}

async function roomWithTwoItems(): Promise<{ room: TestRoom; owner: Caller; a: MediaItem; b: MediaItem }> {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const a = (await room.send(owner, { kind: 'playlist.push', ...media('A') })).item;
  const b = (await room.send(owner, { kind: 'playlist.push', ...media('B') })).item;
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: a.id });
  return { room, owner, a, b };
}

test('choosing media whose save fails answers an error and leaves playback, events and the stored row as they were', async (t) => {
  const { room, owner, a, b } = await roomWithTwoItems();
  const before = await view(room, owner);
  const events = room.events('playback').length;
  await whilePlaybackRefuses(room.id, `media_id = '${b.id}'`, async () => {
    await t.throwsAsync(room.send(owner, { kind: 'playlist.setCurrent', mediaId: b.id }));
    await t.throwsAsync(room.send(owner, { kind: 'playback.next' }));
  });
  const after = await view(room, owner);
  t.deepEqual(after.playback, before.playback, 'still on A at the same version');
  t.is(room.events('playback').length, events, 'nothing was published');
  // A later passivation must not persist the change that failed.
  await room.deactivate('idle');
  const stored = await bed.pool.query<{ media_id: string | null }>('SELECT media_id FROM room_playback WHERE room_id = $1', [room.id]);
  t.is(stored.rows[0]?.media_id, a.id);
});

test('removing the current media fails as a whole when playback cannot be stopped with it', async (t) => {
  const { room, owner, a } = await roomWithTwoItems();
  await whilePlaybackRefuses(room.id, 'media_id IS NULL', async () => {
    await t.throwsAsync(room.send(owner, { kind: 'playlist.remove', mediaId: a.id }));
    await t.throwsAsync(room.send(owner, { kind: 'playlist.clear' }));
  });
  const after = await view(room, owner);
  t.is(after.playback.mediaId, a.id);
  t.deepEqual(
    after.playlist?.map((item) => item.title),
    ['A', 'B'],
  );
  const rows = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM room_playlist WHERE room_id = $1', [room.id]);
  t.is(rows.rows[0]?.n, 2, 'nothing was removed from the database either');
  // And once saving works, removing it stops playback with nothing selected.
  await room.send(owner, { kind: 'playlist.remove', mediaId: a.id });
  t.is((await view(room, owner)).playback.mediaId, null);
});

test('a lazy save that fails is tried again until it lands; the acknowledged seek survives a crash after that', async (t) => {
  const { room, owner } = await roomWithTwoItems();
  await room.send(owner, { kind: 'playback.seek', position: 600 });
  await whilePlaybackRefuses(room.id, 'position >= 600', async () => {
    await room.fire('persist');
    t.true(room.hasTimer('persist'), 'another save is scheduled after a failed one');
    await room.fire('persist');
    t.true(room.hasTimer('persist'), 'and again while it keeps failing');
  });
  await room.fire('persist');
  t.false(room.hasTimer('persist'), 'saved: nothing more to do');
  room.abandon();
  const next = await bed.activate(room.id, { type: bed.otherHost() });
  t.is((await view(next, owner)).playback.position, 600);
});

test('a host that lost its lease saves the acknowledged play under its fence; once a newer activation holds the room, that save is refused', async (t) => {
  // Lost and nobody took over (a starved host missed its heartbeats): the play is kept.
  const { room, owner } = await roomWithTwoItems();
  await room.send(owner, { kind: 'playback.play' });
  t.true(room.hasTimer('persist'), 'the play is only in memory until the lazy save');
  await room.deactivate('lease-lost');
  const next = await bed.activate(room.id, { type: bed.otherHost() });
  t.true((await view(next, owner)).playback.playing, 'the next activation plays');

  // Lost and already taken over: the old activation's seek never reaches the database.
  const { room: old, owner: other } = await roomWithTwoItems();
  await old.send(other, { kind: 'playback.seek', position: 999 });
  const newer = await bed.activate(old.id, { type: bed.otherHost() });
  await t.notThrowsAsync(old.deactivate('lease-lost'));
  const stored = await bed.pool.query<{ position: number }>('SELECT position FROM room_playback WHERE room_id = $1', [old.id]);
  t.not(stored.rows[0]?.position, 999);
  t.not((await view(newer, other)).playback.position, 999);
});
