/**
 * Playlist folders (docs/2026-11-26-playlist-folders.md): folders among the top-level entries,
 * items into and out of them, one play order kept in memory, in events and in PostgreSQL.
 */
import test from 'ava';
import { ROOM_LIMITS } from '../../../actors/room/index.js';
import type { MemberRoomView } from '../../../contracts/room/model.js';
import { applyPlaylistEvent, flattenPlaylist, playlistTree } from '../../../contracts/room/playlist-tree.js';
import { RoomTestBed, addMember, media, rejects, uid, user } from './fixtures.js';
import type { TestRoom } from './fixtures.js';
import type { Caller } from '../../../actors/runtime/actor-type.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_playlist_folders');
});

test.after.always(async () => {
  await bed?.close();
});

async function memberView(room: TestRoom, caller: Caller): Promise<MemberRoomView> {
  const view = await room.send(caller, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error('not a member');
  return view;
}

/** The playlist as a tree of titles: "title" for an item, "[Folder: a, b]" for a folder. */
async function layout(room: TestRoom, caller: Caller): Promise<string[]> {
  const view = await memberView(room, caller);
  return describe(view.playlist ?? [], view.playlistFolders ?? []);
}

function describe(items: MemberRoomView['playlist'] & object, folders: MemberRoomView['playlistFolders'] & object): string[] {
  return playlistTree(items, folders).map((entry) =>
    entry.kind === 'item' ? entry.item.title : `[${entry.folder.title}: ${entry.items.map((item) => item.title).join(', ')}]`,
  );
}

/** Play order as stored: folders and items merged by sort key. */
async function storedOrder(roomId: string): Promise<string[]> {
  const { rows } = await bed.pool.query<{ title: string; kind: string; folder: string | null }>(
    `SELECT title, 'item' AS kind, folder_id AS folder, sort_key FROM room_playlist WHERE room_id = $1
     UNION ALL SELECT title, 'folder', NULL, sort_key FROM room_playlist_folders WHERE room_id = $1
     ORDER BY sort_key`,
    [roomId],
  );
  return rows.map((row) => (row.kind === 'folder' ? `folder ${row.title}` : row.title));
}

/** Follows every playlist event from the room's first view, as the web client does. */
function replayed(room: TestRoom): string[] {
  let flat = { playlist: [] as NonNullable<MemberRoomView['playlist']>, playlistFolders: [] as NonNullable<MemberRoomView['playlistFolders']> };
  for (const event of room.events('playlist')) flat = applyPlaylistEvent(flat, event);
  return describe(flat.playlist, flat.playlistFolders);
}

test('folders sit among top-level entries; items move into, within and out of them; one order everywhere', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const a = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  const b = await room.send(owner, { kind: 'playlist.push', ...media('B') });
  const { folder: season } = await room.send(owner, { kind: 'playlist.folder.add', title: '  Season 1  ' });
  t.like(season, { title: 'Season 1', index: 2, createdBy: owner.userId });
  t.like(room.lastEvent('playlist'), { op: 'folderAdded', folder: { id: season.id, index: 2 } });
  const { folder: films } = await room.send(owner, { kind: 'playlist.folder.add', title: 'Films', index: 0 });
  t.is(films.index, 0);

  const e1 = await room.send(owner, { kind: 'playlist.push', ...media('E1'), folderId: season.id });
  t.like(e1, { index: 0, item: { folderId: season.id } });
  await room.send(owner, { kind: 'playlist.push', ...media('E3'), folderId: season.id });
  const e2 = await room.send(owner, { kind: 'playlist.insert', index: 1, ...media('E2'), folderId: season.id });
  t.is(e2.index, 1);
  t.deepEqual(await layout(room, owner), ['[Films: ]', 'A', 'B', '[Season 1: E1, E2, E3]']);

  // Into a folder, within it, and out of it.
  const moved = await room.send(owner, { kind: 'playlist.move', mediaId: a.item.id, toIndex: 0, folderId: films.id });
  t.deepEqual(moved, { mediaId: a.item.id, index: 0, folderId: films.id });
  t.like(room.lastEvent('playlist'), { op: 'moved', mediaId: a.item.id, toIndex: 0, folderId: films.id });
  await room.send(owner, { kind: 'playlist.move', mediaId: b.item.id, toIndex: 1, folderId: films.id });
  await room.send(owner, { kind: 'playlist.move', mediaId: e1.item.id, toIndex: 2 });
  t.deepEqual(await layout(room, owner), ['[Films: A, B]', '[Season 1: E2, E3, E1]'], 'absent folderId moves within its folder');
  await room.send(owner, { kind: 'playlist.move', mediaId: e1.item.id, toIndex: 1, folderId: null });
  t.deepEqual(await layout(room, owner), ['[Films: A, B]', 'E1', '[Season 1: E2, E3]']);

  // The folder moves with its items.
  const folderMoved = await room.send(owner, { kind: 'playlist.folder.move', folderId: season.id, toIndex: 0 });
  t.deepEqual(folderMoved, { folderId: season.id, index: 0 });
  await room.send(owner, { kind: 'playlist.folder.rename', folderId: films.id, title: 'Tonight' });
  t.like(room.lastEvent('playlist'), { op: 'folderRenamed', folderId: films.id, title: 'Tonight' });
  const expected = ['[Season 1: E2, E3]', '[Tonight: A, B]', 'E1'];
  t.deepEqual(await layout(room, owner), expected);
  t.deepEqual(replayed(room), expected, 'the events alone give the same tree');
  const view = await memberView(room, owner);
  t.deepEqual(
    view.playlist!.map((item) => item.title),
    ['E2', 'E3', 'A', 'B', 'E1'],
    'the flat list is the play order',
  );
  t.deepEqual(await storedOrder(room.id), ['folder Season 1', 'E2', 'E3', 'folder Tonight', 'A', 'B', 'E1']);

  room.abandon();
  const reloaded = await bed.activate(room.id);
  t.deepEqual(await layout(reloaded, owner), expected, 'a new activation loads the same folders and order');
});

test('removing a folder keeps its items where they were, or takes them with it (stopping playback of the current one)', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await room.send(owner, { kind: 'playlist.push', ...media('Top') });
  const { folder: keep } = await room.send(owner, { kind: 'playlist.folder.add', title: 'Keep' });
  const { folder: drop } = await room.send(owner, { kind: 'playlist.folder.add', title: 'Drop' });
  await room.send(owner, { kind: 'playlist.push', ...media('K1'), folderId: keep.id });
  await room.send(owner, { kind: 'playlist.push', ...media('K2'), folderId: keep.id });
  const d1 = await room.send(owner, { kind: 'playlist.push', ...media('D1'), folderId: drop.id });
  await room.send(owner, { kind: 'playlist.push', ...media('Last') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: d1.item.id });

  t.deepEqual(await room.send(owner, { kind: 'playlist.folder.remove', folderId: keep.id, withItems: false }), { folderId: keep.id, removedItems: 0 });
  t.deepEqual(await layout(room, owner), ['Top', 'K1', 'K2', '[Drop: D1]', 'Last']);
  t.like(room.lastEvent('playlist'), { op: 'folderRemoved', folderId: keep.id, withItems: false });

  t.deepEqual(await room.send(owner, { kind: 'playlist.folder.remove', folderId: drop.id, withItems: true }), { folderId: drop.id, removedItems: 1 });
  t.deepEqual(await layout(room, owner), ['Top', 'K1', 'K2', 'Last']);
  t.deepEqual(replayed(room), ['Top', 'K1', 'K2', 'Last']);
  const view = await memberView(room, owner);
  t.is(view.playback.mediaId, null, 'the current item went with its folder: playback stops');

  const { rows } = await bed.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM room_playlist WHERE room_id = $1 AND folder_id IS NOT NULL', [room.id]);
  t.is(rows[0]?.n, 0);
  room.abandon();
  const reloaded = await bed.activate(room.id);
  t.deepEqual(await layout(reloaded, owner), ['Top', 'K1', 'K2', 'Last']);

  await reloaded.send(owner, { kind: 'playlist.folder.add', title: 'Again' });
  await reloaded.send(owner, { kind: 'playlist.clear' });
  t.deepEqual(await layout(reloaded, owner), [], 'clearing the playlist removes folders too');
});

test('folder commands name the field they refuse and write nothing', async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('A') });
  const { folder } = await room.send(owner, { kind: 'playlist.folder.add', title: 'F' });
  const before = await storedOrder(room.id);

  let err = await rejects(t, room.send(owner, { kind: 'playlist.folder.add', title: '   ' }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['title']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.folder.add', title: 'x'.repeat(ROOM_LIMITS.titleMaxChars + 1) }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['title']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.folder.add', title: 'G', index: 3 }), 'invalid_argument', /index/);
  t.deepEqual(err.issues.map((issue) => issue.key), ['index']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.folder.rename', folderId: folder.id, title: 'a\u202Eb' }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['title']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.folder.move', folderId: folder.id, toIndex: 2 }), 'invalid_argument', /toIndex/);
  t.deepEqual(err.issues.map((issue) => issue.key), ['toIndex']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.move', mediaId: item.id, toIndex: 1, folderId: folder.id }), 'invalid_argument', /at most 0/);
  t.deepEqual(err.issues.map((issue) => issue.key), ['toIndex']);
  err = await rejects(t, room.send(owner, { kind: 'playlist.insert', index: 1, ...media('B'), folderId: folder.id }), 'invalid_argument', /folder's length/);
  t.deepEqual(err.issues.map((issue) => issue.key), ['index']);
  await rejects(t, room.send(owner, { kind: 'playlist.push', ...media('B'), folderId: 'nope' }), 'not_found', /folder nope/);
  await rejects(t, room.send(owner, { kind: 'playlist.move', mediaId: item.id, toIndex: 0, folderId: 'nope' }), 'not_found', /folder nope/);
  await rejects(t, room.send(owner, { kind: 'playlist.folder.rename', folderId: 'nope', title: 'x' }), 'not_found');
  await rejects(t, room.send(owner, { kind: 'playlist.folder.remove', folderId: 'nope', withItems: true }), 'not_found');
  err = await rejects(t, room.sendRaw(owner, { kind: 'playlist.folder.remove', folderId: folder.id }), 'invalid_argument');
  t.deepEqual(err.issues.map((issue) => issue.key), ['withItems']);
  t.deepEqual(await storedOrder(room.id), before, 'nothing was written');
});

test(`a room holds at most ${ROOM_LIMITS.playlistMaxFolders} folders, and folders do not change the item cap`, async (t) => {
  const owner = user(uid('owner'));
  const room = await bed.createRoom(owner);
  await bed.pool.query(
    `INSERT INTO room_playlist_folders (folder_id, room_id, sort_key, title, created_by)
     SELECT $1 || '-f' || i, $1, i * 1000000, 'F' || i, $2 FROM generate_series(1, $3::int) AS i`,
    [room.id, owner.userId, ROOM_LIMITS.playlistMaxFolders - 1],
  );
  await bed.pool.query(
    `INSERT INTO room_playlist (room_id, media_id, sort_key, title, url, provider, added_by, folder_id)
     SELECT $1, 'seed-' || i, 1000000 + i * 1024, 'seed ' || i, 'https://media.example.com/' || i, 'direct', $2, $1 || '-f1'
     FROM generate_series(1, $3::int) AS i`,
    [room.id, owner.userId, ROOM_LIMITS.playlistMaxItems - 1],
  );
  room.abandon();
  const reloaded = await bed.activate(room.id);
  const { folder } = await reloaded.send(owner, { kind: 'playlist.folder.add', title: 'the last folder that fits' });
  await rejects(t, reloaded.send(owner, { kind: 'playlist.folder.add', title: 'one too many' }), 'limit_exceeded', new RegExp(`${ROOM_LIMITS.playlistMaxFolders}`));
  await reloaded.send(owner, { kind: 'playlist.push', ...media('the last item that fits'), folderId: folder.id });
  await rejects(t, reloaded.send(owner, { kind: 'playlist.push', ...media('one too many') }), 'limit_exceeded', /at most 500/);
  const view = await memberView(reloaded, owner);
  t.is(view.playlist!.at(-1)?.folderId, folder.id, 'the item went into the new folder, at the end of the play order');
  t.is(view.playlistFolders!.length, ROOM_LIMITS.playlistMaxFolders);
  t.is(view.playlist!.filter((item) => item.folderId === `${room.id}-f1`).length, ROOM_LIMITS.playlistMaxItems - 1);
});

test('folder commands need the permissions of the matching item commands', async (t) => {
  const owner = user(uid('owner'));
  const member = user(uid('member'));
  const room = await bed.createRoom(owner);
  await addMember(room, member);
  const { folder } = await room.send(member, { kind: 'playlist.folder.add', title: 'Mine' });
  const { item } = await room.send(member, { kind: 'playlist.push', ...media('M'), folderId: folder.id });
  await rejects(t, room.send(member, { kind: 'playlist.folder.rename', folderId: folder.id, title: 'x' }), 'forbidden');
  await rejects(t, room.send(member, { kind: 'playlist.folder.move', folderId: folder.id, toIndex: 0 }), 'forbidden');
  await rejects(t, room.send(member, { kind: 'playlist.move', mediaId: item.id, toIndex: 0, folderId: null }), 'forbidden');
  await rejects(t, room.send(member, { kind: 'playlist.folder.remove', folderId: folder.id, withItems: false }), 'forbidden');
  t.deepEqual(await layout(room, owner), ['[Mine: M]']);
});

test('the tree form round-trips the flat form', (t) => {
  const item = (id: string, folderId: string | null) => ({
    id, title: id, url: 'https://m.invalid/', provider: 'direct', headers: {}, subtitles: [], live: false, proxy: false, seekable: 'unknown' as const, reach: null, addedBy: 'u', addedAt: 1, folderId,
  });
  const folder = (id: string, index: number) => ({ id, title: id, index, createdBy: 'u', createdAt: 1 });
  const flat = { playlist: [item('a', null), item('b', 'F'), item('c', null)], playlistFolders: [folder('E', 0), folder('F', 2)] };
  t.deepEqual(flattenPlaylist(playlistTree(flat.playlist, flat.playlistFolders)), flat);
});
