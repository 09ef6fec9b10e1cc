import test from 'ava';
import { isFencedError } from '../../../actors/runtime/fencing.js';
import { RoomTestBed, TestContext, logger, media, nextFence, uid, user } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_fencing');
});

test.after.always(async () => {
  await bed?.close();
});

test('a newer activation fences the older one: its next durable write fails, it says so, and it stops serving', async (t) => {
  const alice = user(uid('alice'));
  const old = await bed.createRoom(alice);
  await old.send(alice, { kind: 'chat.send', text: 'before the takeover' });

  const newer = await bed.activate(old.id, { type: bed.otherHost() });
  t.true(newer.ctx.fence > old.ctx.fence);

  const err = await t.throwsAsync(old.send(alice, { kind: 'chat.send', text: 'from the stale host' }));
  t.true(isFencedError(err), String(err));
  t.is(old.ctx.fencedReasons.length, 1);
  t.regex(old.ctx.fencedReasons[0] ?? '', /newer activation/);
  t.true(isFencedError(await t.throwsAsync(old.send(alice, { kind: 'room.get' }))), 'a fenced activation serves nothing, reads included');
  t.is(old.ctx.fencedReasons.length, 1, 'reported once');

  const history = await newer.send(alice, { kind: 'chat.history' });
  t.deepEqual(history.messages.map((m) => m.text), ['before the takeover']);
  await t.notThrowsAsync(newer.send(alice, { kind: 'chat.send', text: 'after the takeover' }));
});

test('a lazy playback write from a fenced activation never lands, and deactivating it writes nothing', async (t) => {
  const alice = user(uid('alice'));
  const old = await bed.createRoom(alice);
  const { item } = await old.send(alice, { kind: 'playlist.push', ...media('A') });
  await old.send(alice, { kind: 'playlist.setCurrent', mediaId: item.id });
  await old.send(alice, { kind: 'playback.seek', position: 999 });

  const newer = await bed.activate(old.id, { type: bed.otherHost() });
  const stored = await bed.pool.query('SELECT position, version_reserved FROM room_playback WHERE room_id = $1', [old.id]);

  await t.throwsAsync(old.fire('persist'));
  t.is(old.ctx.fencedReasons.length, 1);
  await t.notThrowsAsync(old.deactivate('drain'));
  const after = await bed.pool.query<{ position: number; version_reserved: string }>('SELECT position, version_reserved FROM room_playback WHERE room_id = $1', [old.id]);
  t.deepEqual(after.rows, stored.rows);
  t.not(after.rows[0]?.position, 999);
  await t.notThrowsAsync(newer.send(alice, { kind: 'room.get' }));
});

test('an activation whose fence is already superseded fails to activate', async (t) => {
  const alice = user(uid('alice'));
  const room = await bed.createRoom(alice);
  const stale = new TestContext(room.id, room.ctx.fence - 1n, logger);
  t.true(room.ctx.fence - 1n > 0n);
  const err = await t.throwsAsync(bed.type.activate(stale));
  t.true(isFencedError(err));
  t.is(stale.fencedReasons.length, 1);
  // The current activation is unaffected.
  await t.notThrowsAsync(room.send(alice, { kind: 'chat.send', text: 'still here' }));
});

test('room creation from a superseded activation does not happen', async (t) => {
  const alice = user(uid('alice'));
  const id = uid('room');
  const old = await bed.activate(id);
  await bed.activate(id, { type: bed.otherHost(), fence: nextFence() });
  t.true(isFencedError(await t.throwsAsync(old.send(alice, { kind: 'room.create', name: 'Too late', visibility: 'public' }))));
  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM rooms WHERE id = $1', [id]);
  t.is(rows[0]?.n, 0);
});
