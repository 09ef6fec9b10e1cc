/**
 * The queue that plays (docs/2026-11-26-queue-modes.md): the first item added is cued, the end
 * of an item moves the room on by its queue mode once, and only when the room's own clock has
 * reached the item's length, whoever reports it and whatever they claim.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { PlaybackView, QueueMode } from '../../../contracts/room/model.js';
import { QUEUE_START_LEAD_MS, followingItem } from '../../../actors/room/playback/queue.js';
import { RoomTestBed, TestClock, addMember, guest, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_queue');
});

test.after.always(async () => {
  await bed?.close();
});

/** Every item is this long, as the players report it. */
const LENGTH = 60;

interface Watching {
  room: TestRoom;
  clock: TestClock;
  owner: Caller;
  /** A member who may control playback (the default for members). */
  bob: Caller;
  /** A guest: no control_playback, whatever the room says. */
  gus: Caller;
  ids: string[];
}

/** A room in `mode` with `titles`, the first playing from 0, everyone present and loaded. */
async function watching(mode: QueueMode | undefined, titles = ['A', 'B', 'C']): Promise<Watching> {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const gus = guest(uid('gus'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Queue', visibility: 'public', ...(mode ? { settings: { queueMode: mode } } : {}) });
  const ids: string[] = [];
  for (const title of titles) ids.push((await room.send(owner, { kind: 'playlist.push', ...media(title) })).item.id);
  for (const caller of [bob, gus]) await addMember(room, caller);
  for (const caller of [owner, bob, gus]) {
    await room.send(caller, { kind: 'presence.enter', connectionId: `${caller.userId}-c` });
    await room.send(caller, { kind: 'member.player', state: 'ready', mediaId: ids[0] as string, duration: LENGTH });
  }
  await room.send(owner, { kind: 'playback.play' });
  return { room, clock, owner, bob, gus, ids };
}

/** `duration` null: the report gives none. */
const endOf = (room: TestRoom, caller: Caller, mediaId: string, duration: number | null = LENGTH) =>
  room.send(caller, { kind: 'playback.ended', mediaId, ...(duration !== null ? { duration } : {}) });

/** Plays the current item to its end on the room's clock and has `caller` report it. */
async function playOut(w: Watching, caller: Caller = w.gus): Promise<PlaybackView> {
  const view = (await w.room.send(w.owner, { kind: 'room.get' })) as { playback: PlaybackView };
  const mediaId = view.playback.mediaId as string;
  w.clock.advance(LENGTH * 1000 + QUEUE_START_LEAD_MS);
  for (const member of [w.owner, w.bob, w.gus]) await w.room.send(member, { kind: 'member.player', state: 'ready', mediaId, duration: LENGTH });
  return (await endOf(w.room, caller, mediaId)).playback;
}

test('the first item added to a room with nothing current is cued, paused at its start, and stays cued across an activation', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const first = (await room.send(owner, { kind: 'playlist.push', ...media('First') })).item;
  t.like(room.lastEvent('playback'), { cause: 'playlist.setCurrent', by: owner.userId, playback: { mediaId: first.id, playing: false, position: 0 } });
  const events = room.events('playback').length;
  await room.send(owner, { kind: 'playlist.insert', index: 0, ...media('Second') });
  t.is(room.events('playback').length, events, 'a second item does not change what is current');

  room.abandon();
  const again = await bed.activate(room.id);
  const view = await again.send(owner, { kind: 'room.get' });
  t.like(view, { playback: { mediaId: first.id, playing: false } }, 'the cue was written with the item');

  await again.send(owner, { kind: 'playlist.clear' });
  const fresh = (await again.send(owner, { kind: 'playlist.push', ...media('Third') })).item;
  t.like(again.lastEvent('playback'), { cause: 'playlist.setCurrent', playback: { mediaId: fresh.id, playing: false, position: 0 } }, 'an emptied room cues again');
});

test('next (the default): the following item starts for everyone at a scheduled instant; after the last the room stops at its end', async (t) => {
  const w = await watching(undefined);
  const [a, b, c] = w.ids as [string, string, string];
  const moved = await playOut(w);
  const now = w.clock.ms;
  t.like(moved, { mediaId: b, playing: true, position: 0, updatedAt: now + QUEUE_START_LEAD_MS });
  t.like(w.room.lastEvent('playback'), { cause: 'playback.ended', by: w.gus.userId });
  t.like((await w.room.send(w.owner, { kind: 'room.get' })), { room: { queueMode: 'next' } });

  await playOut(w);
  t.is((await playOut(w)).mediaId, c);
  const stopped = w.room.lastEvent('playback');
  t.like(stopped, { cause: 'playback.ended', playback: { mediaId: c, playing: false, position: LENGTH } });
  t.not(a, c);
});

test('stop: the room pauses at the end of the item', async (t) => {
  const w = await watching('stop');
  t.like(await playOut(w), { mediaId: w.ids[0], playing: false, position: LENGTH });
});

test('repeat_one: the same item again from its start; the second viewer reporting that end does not restart it twice', async (t) => {
  const w = await watching('repeat_one');
  const a = w.ids[0] as string;
  const before = w.room.events('playback').length;
  const again = await playOut(w, w.bob);
  t.like(again, { mediaId: a, playing: true, position: 0, updatedAt: w.clock.ms + QUEUE_START_LEAD_MS });
  await rejects(t, endOf(w.room, w.owner, a), 'conflict', /at 0 s of 60 s/);
  t.is(w.room.events('playback').length, before + 1, 'one restart');
});

test('repeat_all: after the last item the first plays again', async (t) => {
  const w = await watching('repeat_all', ['A', 'B']);
  t.is((await playOut(w)).mediaId, w.ids[1] as string);
  t.like(await playOut(w), { mediaId: w.ids[0], playing: true, position: 0 });
});

test('shuffle: a random other item; a list of one plays it again', async (t) => {
  const w = await watching('shuffle');
  const next = await playOut(w);
  t.true(next.playing);
  t.not(next.mediaId, w.ids[0]);
  t.true(w.ids.includes(next.mediaId as string));

  const alone = await watching('shuffle', ['Only']);
  t.like(await playOut(alone), { mediaId: alone.ids[0], playing: true, position: 0 });

  const list = w.ids.map((id) => ({ item: { id } as never, sortKey: 0 }));
  t.is(followingItem('shuffle', list, 'x-not-there', () => 0.999)?.id, w.ids[2], 'the pick covers the whole rest of the list');
});

test('many viewers reporting the same end move the room once; reports of media no longer current change nothing', async (t) => {
  const w = await watching('next');
  const [a, b] = w.ids as [string, string];
  const moved = await playOut(w, w.gus);
  t.is(moved.mediaId, b);
  const events = w.room.events('playback').length;
  for (const caller of [w.owner, w.bob, w.gus]) t.is((await endOf(w.room, caller, a)).playback.version, moved.version);
  t.is(w.room.events('playback').length, events);
});

test('an early end is refused whoever claims it: a guest lying about the length cannot skip the item, nor can a member without control_playback', async (t) => {
  const w = await watching('next');
  const [a] = w.ids as [string];
  w.clock.advance(10_000);
  const before = (await w.room.send(w.owner, { kind: 'room.get' })) as { playback: PlaybackView };

  // A lie made early (at load) and at the end: the room keeps the longest length it heard.
  await w.room.send(w.gus, { kind: 'member.player', state: 'ready', mediaId: a, duration: 10 });
  await rejects(t, endOf(w.room, w.gus, a, 10), 'conflict', /at 10 s of 60 s/);
  await rejects(t, endOf(w.room, w.gus, a, null), 'conflict', /at 10 s of 60 s/);

  // A member whose role lost control_playback is treated the same.
  await w.room.send(w.owner, { kind: 'room.update', permissionOverrides: { member: ['view_media_resources', 'send_chat'] } });
  await rejects(t, endOf(w.room, w.bob, a, 10), 'conflict', /at 10 s of 60 s/);

  const after = (await w.room.send(w.owner, { kind: 'room.get' })) as { playback: PlaybackView };
  t.is(after.playback.version, before.playback.version, 'nothing moved');
  t.is(after.playback.mediaId, a);
});

test('a guest inflating the length only delays the end its peers may report; someone who controls playback ends it by their own length', async (t) => {
  const w = await watching('next');
  const [a, b] = w.ids as [string, string];
  await w.room.send(w.gus, { kind: 'member.player', state: 'ready', mediaId: a, duration: 100_000 });
  w.clock.advance(LENGTH * 1000);
  await w.room.send(w.owner, { kind: 'room.update', permissionOverrides: { member: ['view_media_resources'] } });
  await rejects(t, endOf(w.room, w.bob, a), 'conflict', /of 100000 s/);
  t.is((await endOf(w.room, w.owner, a)).playback.mediaId, b);
});

test('an end is refused while the room does not know the length, and ignored while paused', async (t) => {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const gus = guest(uid('gus'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Unknown', visibility: 'public' });
  const a = (await room.send(owner, { kind: 'playlist.push', ...media('A') })).item.id;
  await room.send(owner, { kind: 'playlist.push', ...media('B') });
  await addMember(room, gus);
  const paused = await endOf(room, gus, a, null);
  t.like(paused.playback, { mediaId: a, playing: false }, 'paused: nothing to end');

  await room.send(owner, { kind: 'playback.play' });
  clock.advance(LENGTH * 1000);
  await rejects(t, endOf(room, gus, a, null), 'conflict', /does not know the length/);
  t.like((await endOf(room, gus, a)).playback, { playing: true, position: 0 }, 'its own report counts when it is the only one');
});

test('livestreams end on the word of someone who controls playback only', async (t) => {
  const w = await watching('next');
  const live = (await w.room.send(w.owner, { kind: 'playlist.insert', index: 0, title: 'On air', provider: 'live' })).item;
  await w.room.send(w.owner, { kind: 'playlist.setCurrent', mediaId: live.id });
  await w.room.send(w.owner, { kind: 'playback.play' });
  await rejects(t, endOf(w.room, w.gus, live.id, null), 'forbidden', /control_playback/);
  t.is((await endOf(w.room, w.owner, live.id, null)).playback.mediaId, w.ids[0] as string);
});

test('the queue mode is a room setting: shown to members, changed with edit_room_settings, checked, and kept', async (t) => {
  const owner = user(uid('owner'));
  const bob = user(uid('bob'));
  const room = await bed.createRoom(owner, { settings: { queueMode: 'repeat_all' } });
  await addMember(room, bob);
  t.like(await room.send(bob, { kind: 'room.get' }), { room: { queueMode: 'repeat_all' } });
  await rejects(t, room.send(bob, { kind: 'room.update', queueMode: 'shuffle' }), 'forbidden', /edit_room_settings/);
  const updated = await room.send(owner, { kind: 'room.update', queueMode: 'shuffle' });
  t.is(updated.room.queueMode, 'shuffle');
  t.like(room.lastEvent('room.updated'), { room: { queueMode: 'shuffle' } });
  const bad = await rejects(t, room.sendRaw(owner, { kind: 'room.update', queueMode: 'loop' }), 'invalid_argument');
  t.is(bad.issues?.[0]?.key, 'queueMode');

  room.abandon();
  const again = await bed.activate(room.id);
  t.like(await again.send(owner, { kind: 'room.get' }), { room: { queueMode: 'shuffle' } });
});
