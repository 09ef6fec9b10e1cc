import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import { ROOM_LIMITS, type PlaybackView } from '../../../actors/room/index.js';
import { extrapolate } from '../../../actors/room/playback/playback.js';
import { RoomTestBed, TestClock, addMember, guest, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_playback');
});

test.after.always(async () => {
  await bed?.close();
});

interface Cued {
  room: TestRoom;
  owner: Caller;
  clock: TestClock;
  ids: string[];
}

/** A room with items `titles`, the first one current and paused at 0, on its own clock. */
async function cued(titles: string[] = ['A'], create: Record<string, unknown> = {}): Promise<Cued> {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Cinema', visibility: 'public', ...create });
  const ids: string[] = [];
  for (const title of titles) ids.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item.id);
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: ids[0] as string });
  return { room, owner, clock, ids };
}

async function playbackOf(room: TestRoom, caller: Caller): Promise<PlaybackView> {
  const view = await room.send(caller, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error(`${caller.userId} is not a member`);
  return view.playback;
}

test('play, pause, seek and rate move one authoritative clock; every change bumps the version and is published whole', async (t) => {
  const { room, owner, clock, ids } = await cued();
  const v0 = (await playbackOf(room, owner)).version;

  const played = (await room.send(owner, { kind: 'playback.play' })).playback;
  t.like(played, { mediaId: ids[0], playing: true, position: 0, rate: 1, updatedAt: clock.ms, version: v0 + 1, waitingForReady: null });
  t.deepEqual(room.lastEvent('playback'), { type: 'playback', playback: played, cause: 'playback.play', by: owner.userId });

  const events = room.ctx.events.length;
  t.is((await room.send(owner, { kind: 'playback.play' })).playback.version, v0 + 1, 'playing again while playing changes nothing');
  t.is(room.ctx.events.length, events);

  clock.advance(10_000);
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { playing: false, position: 10, version: v0 + 2 });
  t.like((await room.send(owner, { kind: 'playback.seek', position: 100 }, { sentAt: clock.ms - 500 })).playback, {
    playing: false,
    position: 100,
    version: v0 + 3,
  });
  t.like((await room.send(owner, { kind: 'playback.rate', rate: 2 })).playback, { rate: 2, position: 100, version: v0 + 4 });
  await room.send(owner, { kind: 'playback.play' });
  clock.advance(5_000);
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { playing: false, position: 110 });
  t.like((await room.send(owner, { kind: 'playback.pause', position: 108.5 })).playback, { position: 108.5 }, 'a pause may carry where the sender stopped');

  for (const rate of [ROOM_LIMITS.rateMin - 0.01, ROOM_LIMITS.rateMax + 0.01]) {
    const err = await rejects(t, room.send(owner, { kind: 'playback.rate', rate }), 'invalid_argument');
    t.is(err.issues[0]?.key, 'rate');
  }
  await t.notThrowsAsync(room.send(owner, { kind: 'playback.rate', rate: ROOM_LIMITS.rateMax }));
  await rejects(t, room.sendRaw(owner, { kind: 'playback.seek', position: -1 }), 'invalid_argument', /position/);
});

test('a scheduled play (startInMs) puts updatedAt ahead and holds the position until then; a pause before the instant keeps it', async (t) => {
  const { room, owner, clock } = await cued();
  const start = clock.ms;
  // sentAt would compensate 300 ms of transit; the lead replaces it.
  const played = (await room.send(owner, { kind: 'playback.play', position: 30, startInMs: 800 }, { sentAt: clock.ms - 300 })).playback;
  t.like(played, { playing: true, position: 30, updatedAt: start + 800 });
  t.deepEqual(room.lastEvent('playback')?.playback, played, 'every member is told the instant');

  clock.advance(500);
  t.like(await playbackOf(room, owner), { playing: true, position: 30, updatedAt: start + 800 }, 'nothing moves before the instant');
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { playing: false, position: 30 }, 'a pause before the start keeps the position');

  const again = (await room.send(owner, { kind: 'playback.play', startInMs: 1000 })).playback;
  t.like(again, { playing: true, position: 30, updatedAt: clock.ms + 1000 });
  clock.advance(1500);
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { playing: false, position: 30.5 }, 'plays from the instant on');

  const now = (await room.send(owner, { kind: 'playback.play', startInMs: 0 })).playback;
  t.like(now, { playing: true, position: 30.5, updatedAt: clock.ms }, 'a lead of 0 starts at once, without compensation');
});

test('a rate change before a scheduled start keeps the instant; a new activation keeps a start still ahead', async (t) => {
  const { room, owner, clock } = await cued();
  const played = (await room.send(owner, { kind: 'playback.play', position: 10, startInMs: 2000 })).playback;
  clock.advance(500);
  t.like((await room.send(owner, { kind: 'playback.rate', rate: 2 })).playback, { position: 10, rate: 2, updatedAt: played.updatedAt });
  clock.advance(2500);
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { position: 12 }, '1 s at 2x after the instant');

  const stored = { mediaId: 'm', playing: true, position: 10, rate: 1, updatedAt: 5_000, version: 3 };
  t.deepEqual(extrapolate(stored, 4_000), stored, 'a start ahead survives a failover unchanged');
  t.like(extrapolate(stored, 6_000), { position: 11, updatedAt: 6_000 });
});

test('a scheduled seek while playing resumes from exactly the position at the instant; paused, the lead is ignored', async (t) => {
  const { room, owner, clock } = await cued();
  await room.send(owner, { kind: 'playback.play' });
  clock.advance(3_000);
  const sought = (await room.send(owner, { kind: 'playback.seek', position: 100, startInMs: 400 }, { sentAt: clock.ms - 300 })).playback;
  t.like(sought, { playing: true, position: 100, updatedAt: clock.ms + 400 });
  clock.advance(1_400);
  t.like((await room.send(owner, { kind: 'playback.pause' })).playback, { playing: false, position: 101 });

  const paused = (await room.send(owner, { kind: 'playback.seek', position: 50, startInMs: 400 })).playback;
  t.like(paused, { playing: false, position: 50, updatedAt: clock.ms });
});

test('startInMs out of range or fractional is refused with invalid_argument naming the field', async (t) => {
  const { room, owner } = await cued();
  for (const startInMs of [-1, ROOM_LIMITS.startInMaxMs + 1, 1.5]) {
    for (const command of [{ kind: 'playback.play', startInMs }, { kind: 'playback.seek', position: 1, startInMs }]) {
      const err = await rejects(t, room.sendRaw(owner, command), 'invalid_argument');
      t.is(err.issues?.[0]?.key, 'startInMs', JSON.stringify(command));
    }
  }
  t.false((await playbackOf(room, owner)).playing, 'nothing changed');
});

test('a command with a stale expected version or media is refused and changes nothing', async (t) => {
  const { room, owner, ids } = await cued(['A', 'B']);
  const { playback: now } = await room.send(owner, { kind: 'playback.seek', position: 5 });
  await rejects(t, room.send(owner, { kind: 'playback.seek', position: 60, expectVersion: now.version - 1 }), 'conflict', /version/);
  await rejects(t, room.send(owner, { kind: 'playback.seek', position: 60, expectMediaId: ids[1] }), 'conflict', /current media/);
  await rejects(t, room.send(owner, { kind: 'playback.next', expectVersion: now.version + 1 }), 'conflict');
  const after = await room.send(owner, { kind: 'playback.seek', position: 60, expectVersion: now.version, expectMediaId: ids[0] });
  t.like(after.playback, { position: 60, version: now.version + 1 });
});

test('transit compensation places a seek or play where the sender meant it, bounded and never backwards', async (t) => {
  const { room, owner, clock } = await cued();
  await room.send(owner, { kind: 'playback.play' });
  const seek = async (sentAt: number) => (await room.send(owner, { kind: 'playback.seek', position: 50 }, { sentAt })).playback.position;
  t.is(await seek(clock.ms - 300), 50.3);
  t.is(await seek(clock.ms - 60_000), 50 + ROOM_LIMITS.transitCompensationMaxMs / 1000, 'at most 2 s');
  t.is(await seek(clock.ms + 5_000), 50, 'a client clock ahead of ours adds nothing');
  await room.send(owner, { kind: 'playback.rate', rate: 2 });
  t.is(await seek(clock.ms - 500), 51, 'compensation runs at the playback rate');

  await room.send(owner, { kind: 'playback.pause', position: 20 });
  t.is(await seek(clock.ms - 500), 50, 'nothing moves while paused');
  const played = await room.send(owner, { kind: 'playback.play' }, { sentAt: clock.ms - 400 });
  t.is(played.playback.position, 50.8, 'play starts where the sender pressed it (at rate 2)');
});

test('conflicting commands from two members resolve in arrival order', async (t) => {
  const { room, owner } = await cued();
  const bob = user(uid('bob'));
  await addMember(room, bob);
  const before = (await room.send(owner, { kind: 'playback.seek', position: 1 })).playback.version;
  const [first, second] = await Promise.all([
    room.send(owner, { kind: 'playback.seek', position: 30 }),
    room.send(bob, { kind: 'playback.seek', position: 90 }),
  ]);
  t.is(first.playback.version, before + 1);
  t.is(second.playback.version, before + 2);
  const view = await room.send(owner, { kind: 'room.get' });
  t.is(view.access === 'member' ? view.playback.position : -1, 90);
  t.deepEqual(
    room.events('playback').slice(-2).map((e) => [e.by, e.playback.position]),
    [
      [owner.userId, 30],
      [bob.userId, 90],
    ],
  );
});

test('next, previous and end of media; the end advances once however many players report it', async (t) => {
  const { room, owner, clock, ids } = await cued(['A', 'B', 'C']);
  const bob = user(uid('bob'));
  await addMember(room, bob);
  await rejects(t, room.send(owner, { kind: 'playback.previous' }), 'conflict', /no previous/);
  await room.send(owner, { kind: 'playback.seek', position: 33 });
  await room.send(owner, { kind: 'playback.play' });

  // Bob's player saw a 34 s item: the room, at 33 s, is within the tolerance of its end.
  const advanced = await room.send(bob, { kind: 'playback.ended', mediaId: ids[0] as string, duration: 34 });
  t.like(advanced.playback, { mediaId: ids[1], playing: true, position: 0 });
  t.like(room.lastEvent('playback'), { cause: 'playback.ended', by: bob.userId });
  const again = await room.send(owner, { kind: 'playback.ended', mediaId: ids[0] as string });
  t.is(again.playback.version, advanced.playback.version, 'a late report of the same end is ignored');

  t.like((await room.send(owner, { kind: 'playback.next' })).playback, { mediaId: ids[2], playing: true });
  await rejects(t, room.send(owner, { kind: 'playback.next' }), 'conflict', /no next/);
  clock.advance(61_000);
  const stopped = await room.send(bob, { kind: 'playback.ended', mediaId: ids[2] as string, duration: 60 });
  t.like(stopped.playback, { mediaId: ids[2], playing: false, position: 60 });
  t.is((await room.send(owner, { kind: 'playback.ended', mediaId: ids[2] as string })).playback.version, stopped.playback.version);

  const back = await room.send(owner, { kind: 'playback.previous' });
  t.like(back.playback, { mediaId: ids[1], playing: false, position: 0 }, 'a paused room stays paused on the new media');
});

test('livestreams cannot be seeked or sped up', async (t) => {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Live', visibility: 'public' });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('Stream', { provider: 'live' }) });
  t.is(room.lastEvent('playback')?.playback.mediaId, item.id, 'the first item is cued');
  await room.send(owner, { kind: 'playback.play' });
  await rejects(t, room.send(owner, { kind: 'playback.seek', position: 10 }), 'conflict', /livestream/);
  await rejects(t, room.send(owner, { kind: 'playback.rate', rate: 2 }), 'conflict', /livestream/);
});

test('after a crash the next activation extrapolates from the last persisted state', async (t) => {
  const { room, owner, clock, ids } = await cued();
  await room.send(owner, { kind: 'playback.seek', position: 20 });
  await room.send(owner, { kind: 'playback.rate', rate: 1.5 });
  await room.send(owner, { kind: 'playback.play' });
  t.true(room.hasTimer('persist'), 'a change schedules a lazy write');
  const delay = room.ctx.pending().find((timer) => (timer.command as { name: string }).name === 'persist')?.ms ?? Number.NaN;
  t.true(delay >= 2500 && delay <= 5000, `persist scheduled within the persist interval, not ${delay} ms`);
  clock.advance(5_000);
  await room.fire('persist');
  const { rows } = await bed.pool.query('SELECT media_id, playing, position, rate FROM room_playback WHERE room_id = $1', [room.id]);
  t.deepEqual(rows, [{ media_id: ids[0], playing: true, position: 20, rate: 1.5 }]);

  // Changes after the last write, then the host dies (no deactivation).
  const lost = await room.send(owner, { kind: 'playback.seek', position: 500 });
  clock.advance(2_000);
  room.abandon();

  const otherClock = new TestClock(clock.ms + 1_000);
  const next = await bed.activate(room.id, { type: bed.otherHost(otherClock), clock: otherClock });
  const resumed = await playbackOf(next, owner);
  // 8 s of playing at 1.5x since the persisted position 20, set at the persist time.
  t.like(resumed, { mediaId: ids[0], playing: true, rate: 1.5, position: 20 + 8 * 1.5, updatedAt: otherClock.ms });
  t.true(resumed.version > lost.playback.version, 'no version handed out before the crash is handed out again');
});

test('a graceful deactivation persists playback exactly', async (t) => {
  const { room, owner, clock } = await cued();
  await room.send(owner, { kind: 'playback.play' });
  clock.advance(7_000);
  const paused = await room.send(owner, { kind: 'playback.pause' });
  await room.deactivate('drain');
  clock.advance(60_000);
  const next = await bed.activate(room.id, { clock });
  const resumed = await playbackOf(next, owner);
  t.like(resumed, { playing: false, position: 7 });
  t.true(resumed.version > paused.playback.version);
});

test('versions stay unique across a crash even after more changes than one reserved block', async (t) => {
  const { room, owner } = await cued();
  let last = 0;
  for (let i = 0; i < 1100; i += 1) last = (await room.send(owner, { kind: 'playback.seek', position: i })).playback.version;
  room.abandon();
  const next = await bed.activate(room.id);
  const moved = await next.send(owner, { kind: 'playback.seek', position: 1 });
  t.true(moved.playback.version > last, `${moved.playback.version} > ${last}`);
});

/** A waitForAllReady room with three members present, all on the first item. */
async function readyRoom(timeoutMs = 8000) {
  const cue = await cued(['A', 'B'], { settings: { waitForAllReady: true, readyTimeoutMs: timeoutMs } });
  const bob = user(uid('bob'));
  const carol = user(uid('carol'));
  await addMember(cue.room, bob);
  await addMember(cue.room, carol);
  for (const caller of [cue.owner, bob, carol]) await cue.room.send(caller, { kind: 'presence.enter', connectionId: `${caller.userId}-c` });
  return { ...cue, bob, carol };
}

const report = (room: TestRoom, caller: Caller, state: 'buffering' | 'ready' | 'ended', mediaId: string | null) =>
  room.send(caller, { kind: 'member.player', state, mediaId });

test('waitForAllReady: play starts only once every present member is ready', async (t) => {
  const { room, owner, bob, carol, clock, ids } = await readyRoom();
  const a = ids[0] as string;
  await report(room, owner, 'ready', a);
  const held = await room.send(owner, { kind: 'playback.play' });
  t.like(held.playback, { playing: false, waitingForReady: { deadline: clock.ms + 8000 } });
  t.deepEqual(held.playback.waitingForReady?.userIds.sort(), [bob.userId, carol.userId].sort());
  t.is(room.ctx.pending().find((timer) => (timer.command as { name: string }).name === 'ready')?.ms, 8000, 'the wait is bounded');

  const stillHeld = await report(room, bob, 'ready', a);
  t.like(stillHeld.playback, { playing: false, waitingForReady: { userIds: [carol.userId] } });
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, player: { state: 'ready', mediaId: a } } });
  await report(room, carol, 'buffering', a);
  t.false(room.lastEvent('playback')?.playback.playing);
  clock.advance(1_500);
  const again = await room.send(bob, { kind: 'playback.play' });
  t.is(again.playback.waitingForReady?.deadline, clock.ms - 1_500 + 8000, 'pressing play again does not extend the wait');

  const started = await report(room, carol, 'ready', a);
  t.like(started.playback, { playing: true, waitingForReady: null });
  t.like(room.lastEvent('playback'), { cause: 'ready', playback: { playing: true } });
  t.false(room.hasTimer('ready'));
});

test('waitForAllReady: a member who buffers pauses the room; a stalled one is left behind when the wait runs out', async (t) => {
  const { room, owner, bob, carol, clock, ids } = await readyRoom(5000);
  const a = ids[0] as string;
  for (const caller of [owner, bob, carol]) await report(room, caller, 'ready', a);
  await room.send(owner, { kind: 'playback.play' });
  clock.advance(3_000);

  await report(room, bob, 'buffering', a);
  t.like(room.lastEvent('playback'), { cause: 'buffering', by: bob.userId, playback: { playing: false, position: 3, waitingForReady: { userIds: [bob.userId] } } });

  // Bob never recovers: the bounded wait fires and the room plays without him.
  clock.advance(5_000);
  await room.fire('ready');
  t.like(room.lastEvent('playback'), { cause: 'ready.timeout', leftBehind: [bob.userId], playback: { playing: true, position: 3 } });

  const ignored = room.events('playback').length;
  await report(room, bob, 'buffering', a);
  t.is(room.events('playback').length, ignored, 'a member left behind does not pause the room again');
  await report(room, bob, 'ready', a);
  await report(room, bob, 'buffering', a);
  t.like(room.lastEvent('playback'), { cause: 'buffering', by: bob.userId }, 'once caught up, their buffering counts again');

  // Leaving the room releases a wait for them.
  await room.send(bob, { kind: 'presence.leave', connectionId: `${bob.userId}-c` });
  t.like(room.lastEvent('playback'), { cause: 'ready', playback: { playing: true } });
});

test('waitForAllReady: the next media waits for everyone to load it; pause or turning the option off ends a wait', async (t) => {
  const { room, owner, bob, carol, clock, ids } = await readyRoom();
  const [a, b] = ids as [string, string];
  for (const caller of [owner, bob, carol]) await report(room, caller, 'ready', a);
  await room.send(owner, { kind: 'playback.play' });

  clock.advance(30_000);
  const switched = await room.send(owner, { kind: 'playback.ended', mediaId: a, duration: 30 });
  t.like(switched.playback, { mediaId: b, playing: false });
  t.is(switched.playback.waitingForReady?.userIds.length, 3, 'nobody has loaded the next media yet');
  for (const caller of [owner, bob]) await report(room, caller, 'ready', b);
  await room.send(owner, { kind: 'playback.pause' });
  t.false(room.hasTimer('ready'), 'pausing ends the wait');
  t.like(room.lastEvent('playback'), { playback: { playing: false, waitingForReady: null } });

  await room.send(owner, { kind: 'playback.play' });
  t.like(room.lastEvent('playback'), { playback: { playing: false, waitingForReady: { userIds: [carol.userId] } } });
  await room.send(owner, { kind: 'room.update', waitForAllReady: false });
  t.like(room.lastEvent('playback'), { playback: { playing: true, waitingForReady: null } });
});

test('waitForAllReady: only members who may control playback pause a playing room by buffering; everyone is waited for at play', async (t) => {
  const { room, owner, bob, carol, ids } = await readyRoom();
  const a = ids[0] as string;
  const gus = guest(uid('gus'));
  await addMember(room, gus);
  await room.send(gus, { kind: 'presence.enter', connectionId: `${gus.userId}-c` });
  // Bob keeps control_playback as an admin; plain members (Carol) lose it in this room.
  await room.send(owner, { kind: 'member.setRole', userId: bob.userId, role: 'admin' });
  await room.send(owner, { kind: 'room.update', permissionOverrides: { member: ['send_chat', 'view_member_list', 'view_media_resources'] } });

  for (const caller of [owner, bob, carol]) await report(room, caller, 'ready', a);
  const held = await room.send(owner, { kind: 'playback.play' });
  t.like(held.playback, { playing: false, waitingForReady: { userIds: [gus.userId] } }, 'a play still waits for the guest');
  await report(room, gus, 'ready', a);
  t.like(room.lastEvent('playback'), { cause: 'ready', playback: { playing: true } });

  const versions = room.events('playback').length;
  const fromGuest = await report(room, gus, 'buffering', a);
  t.like(fromGuest.playback, { playing: true, waitingForReady: null }, 'a guest cannot hold the room');
  t.like(room.lastEvent('member.updated'), { member: { userId: gus.userId, player: { state: 'buffering' } } }, 'the report is still shown');
  const fromCarol = await report(room, carol, 'buffering', a);
  t.like(fromCarol.playback, { playing: true, waitingForReady: null }, 'nor can a member whose role lacks control_playback');
  t.is(room.events('playback').length, versions);

  await report(room, bob, 'buffering', a);
  t.like(room.lastEvent('playback'), { cause: 'buffering', by: bob.userId, playback: { playing: false } });
  t.deepEqual(room.lastEvent('playback')?.playback.waitingForReady?.userIds.sort(), [bob.userId, carol.userId, gus.userId].sort());
});

test('a new member coming online during a wait is waited for as well', async (t) => {
  const { room, owner, bob, carol, ids } = await readyRoom();
  const a = ids[0] as string;
  await report(room, owner, 'ready', a);
  await report(room, bob, 'ready', a);
  await room.send(owner, { kind: 'playback.play' });
  const dave = user(uid('dave'));
  await addMember(room, dave);
  await room.send(dave, { kind: 'presence.enter', connectionId: 'd' });
  await report(room, carol, 'ready', a);
  t.like(room.lastEvent('playback'), { playback: { playing: false } });
  t.deepEqual((await playbackOf(room, owner)).waitingForReady?.userIds, [dave.userId]);
  await report(room, dave, 'ready', a);
  t.like(room.lastEvent('playback'), { cause: 'ready', playback: { playing: true } });
});
