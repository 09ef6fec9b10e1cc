/**
 * Playing a folder (docs/2026-11-26-playlist-folders.md): the queue goes on within the folder,
 * in order or shuffled, then by the room's queue mode (`next` after the folder, `stop` stops),
 * and a new activation goes on where the folder play was.
 */
import test from 'ava';
import type { Caller } from '../../../actors/runtime/actor-type.js';
import type { PlaybackView, QueueMode } from '../../../contracts/room/model.js';
import { QUEUE_START_LEAD_MS } from '../../../actors/room/playback/queue.js';
import { folderStep, startFolderPlay } from '../../../actors/room/playback/queue-folder.js';
import { RoomTestBed, TestClock, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';

let bed: RoomTestBed;
test.before(async () => {
  bed = await RoomTestBed.start('room_folder_play');
});
test.after.always(async () => {
  await bed?.close();
});

const LENGTH = 60;

interface Watching {
  room: TestRoom;
  clock: TestClock;
  owner: Caller;
  folderId: string;
  /** Titles by id. */
  titles: Map<string, string>;
}

/** A room in `mode`: A, a folder "Season" with E1..E3, then Z; A playing, the owner present. */
async function watching(mode: QueueMode): Promise<Watching> {
  const clock = new TestClock();
  const owner = user(uid('owner'));
  const room = await bed.activate(uid('room'), { clock });
  await room.send(owner, { kind: 'room.create', name: 'Folders', visibility: 'public', settings: { queueMode: mode } });
  const titles = new Map<string, string>();
  const push = async (title: string, folderId?: string) => {
    const { item } = await room.send(owner, { kind: 'playlist.push', ...media(title), ...(folderId ? { folderId } : {}) });
    titles.set(item.id, title);
  };
  await push('A');
  const { folder } = await room.send(owner, { kind: 'playlist.folder.add', title: 'Season' });
  for (const title of ['E1', 'E2', 'E3']) await push(title, folder.id);
  await push('Z');
  await room.send(owner, { kind: 'presence.enter', connectionId: `${owner.userId}-c` });
  await ready(room, owner);
  await room.send(owner, { kind: 'playback.play' });
  return { room, clock, owner, folderId: folder.id, titles };
}

async function ready(room: TestRoom, owner: Caller): Promise<PlaybackView> {
  const view = (await room.send(owner, { kind: 'room.get' })) as { playback: PlaybackView };
  if (view.playback.mediaId) await room.send(owner, { kind: 'member.player', state: 'ready', mediaId: view.playback.mediaId, duration: LENGTH });
  return view.playback;
}

/** Plays the current item to its end on the room's clock; answers the title playing next (or null: stopped). */
async function playOut(w: Watching): Promise<string | null> {
  const { mediaId } = await ready(w.room, w.owner);
  w.clock.advance(LENGTH * 1000 + QUEUE_START_LEAD_MS);
  await ready(w.room, w.owner);
  const { playback } = await w.room.send(w.owner, { kind: 'playback.ended', mediaId: mediaId!, duration: LENGTH });
  return playback.playing ? (w.titles.get(playback.mediaId!) ?? '?') : null;
}

const title = async (w: Watching): Promise<string | undefined> => w.titles.get((await ready(w.room, w.owner)).mediaId ?? '');

test('in order: the folder plays through, then "next" goes on after the folder', async (t) => {
  const w = await watching('next');
  const { playback } = await w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'in_order' });
  t.is(w.titles.get(playback.mediaId!), 'E1');
  t.true(playback.playing, 'a playing room goes on playing the folder');
  t.is(await playOut(w), 'E2');
  t.is(await playOut(w), 'E3');
  t.is(await playOut(w), 'Z', 'after the folder, the item after it');
  t.is(await playOut(w), null);
});

test('in order with "stop": the folder plays through, then the room stops', async (t) => {
  const w = await watching('stop');
  await w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'in_order' });
  t.is(await playOut(w), 'E2');
  t.is(await playOut(w), 'E3');
  t.is(await playOut(w), null, 'stop applies at the folder\'s end');
  t.is(await title(w), 'E3');
});

test('shuffled: every item of the folder once, then the queue mode goes on after the folder', async (t) => {
  const w = await watching('next');
  const { playback } = await w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'shuffle' });
  const played = [w.titles.get(playback.mediaId!)];
  played.push((await playOut(w))!, (await playOut(w))!);
  t.deepEqual([...played].sort(), ['E1', 'E2', 'E3']);
  t.is(await playOut(w), 'Z');
});

test('a new activation goes on within the folder; choosing another item ends the folder play', async (t) => {
  const w = await watching('next');
  await w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'in_order' });
  t.is(await playOut(w), 'E2');
  w.room.abandon();
  const again = await bed.activate(w.room.id, { clock: w.clock });
  await again.send(w.owner, { kind: 'presence.enter', connectionId: `${w.owner.userId}-c2` });
  const next = { ...w, room: again };
  t.is(await playOut(next), 'E3', 'the stored folder play goes on');
  t.is(await playOut(next), 'Z');

  // A folder play, then someone picks an item inside it by hand: the room's mode applies from there.
  await again.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'shuffle' });
  const e1 = [...w.titles].find(([, name]) => name === 'E1')![0];
  await again.send(w.owner, { kind: 'playlist.setCurrent', mediaId: e1 });
  await again.send(w.owner, { kind: 'playback.play' });
  t.is(await playOut(next), 'E2', 'plain "next" order, not the shuffle');
});

test('choosing by hand the very item the folder play is on ends it too', async (t) => {
  const w = await watching('stop');
  await w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'in_order' });
  t.is(await title(w), 'E1');
  const e1 = [...w.titles].find(([, name]) => name === 'E1')![0];
  await w.room.send(w.owner, { kind: 'playlist.setCurrent', mediaId: e1 });
  await w.room.send(w.owner, { kind: 'playback.play' });
  t.is(await playOut(w), null, '"stop" applies: the folder play ended when E1 was chosen by hand');
  w.room.abandon();
  const again = await bed.activate(w.room.id, { clock: w.clock });
  const { rows } = await bed.pool.query<{ folder_play: unknown }>('SELECT folder_play FROM room_playback WHERE room_id = $1', [again.id]);
  t.is(rows[0]?.folder_play ?? null, null, 'and its end was stored');
});

test('playing a folder needs set_current_media, an existing folder with items, and a known order', async (t) => {
  const w = await watching('next');
  const { folder: empty } = await w.room.send(w.owner, { kind: 'playlist.folder.add', title: 'Empty' });
  await rejects(t, w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: empty.id, order: 'in_order' }), 'conflict', /no items/);
  await rejects(t, w.room.send(w.owner, { kind: 'playlist.folder.play', folderId: 'nope', order: 'in_order' }), 'not_found');
  const err = await rejects(t, w.room.sendRaw(w.owner, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'backwards' }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['order']);
  const viewer = user(uid('viewer'));
  await w.room.send(viewer, { kind: 'member.join' });
  await w.room.send(w.owner, { kind: 'member.setPermissions', userId: viewer.userId, grant: [], deny: ['set_current_media'] });
  await rejects(t, w.room.send(viewer, { kind: 'playlist.folder.play', folderId: w.folderId, order: 'in_order' }), 'forbidden');
});

test('the folder step skips items removed from the folder since it started', (t) => {
  const state = startFolderPlay('f', 'shuffle', ['a', 'b', 'c'], () => 0);
  t.is(state.current, 'b');
  t.deepEqual(state.remaining, ['c', 'a']);
  t.like(folderStep(state, 'b', ['a', 'b']), { kind: 'next', mediaId: 'a' });
  t.deepEqual(folderStep(state, 'x', ['a', 'b', 'c']), { kind: 'none' });
  t.deepEqual(folderStep({ ...state, order: 'in_order', remaining: [] }, 'b', ['a', 'b']), { kind: 'done', anchor: 'b' });
});
