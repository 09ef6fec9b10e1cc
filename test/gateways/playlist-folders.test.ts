/**
 * Playlist folders through every transport (docs/2026-11-26-playlist-folders.md): the folder
 * commands and folderId on add, bulk add and move answer alike over HTTP, the WebSocket and gRPC,
 * and MediaItem.folderId / PlaylistFolder reach each of them.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import type { MemberRoomView } from '../../contracts/room/model.js';
import { open } from './ws/fixtures.js';
import { refused, startGrpcBed, type GrpcBed } from './grpc/fixtures.js';
import { mediaMessage, plain } from './grpc/parity.js';

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('playlist_folders');
});
test.after.always(async () => {
  await g?.close();
});

interface Folder {
  id: string;
  title: string;
  index: number;
}

test('HTTP: folders are made, filled, moved, renamed and removed; the playlist view carries them', async (t) => {
  const { bed } = g;
  const owner = await bed.signUp('fhttp');
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Folders' }, owner.token)).body.room.id;
  const loose = await bed.call<{ item: { id: string; folderId: string | null } }>('POST', `/api/rooms/${roomId}/playlist`, { title: 'Loose', url: 'https://media.example.com/l.mp4' }, owner.token);
  t.is(loose.body.item.folderId, null);

  const made = await bed.call<{ folder: Folder; seq: number }>('POST', `/api/rooms/${roomId}/playlist/folders`, { title: 'Season 1', index: 0 }, owner.token);
  t.is(made.status, 201);
  t.like(made.body.folder, { title: 'Season 1', index: 0 });
  const folderId = made.body.folder.id;

  const bulk = await bed.call<{ added: Array<{ item: { folderId: string | null }; index: number }> }>(
    'POST',
    `/api/rooms/${roomId}/playlist/bulk`,
    { items: [{ title: 'E1', url: 'https://media.example.com/1.mp4' }, { title: 'E2', url: 'https://media.example.com/2.mp4' }], folderId },
    owner.token,
  );
  t.is(bulk.status, 201);
  t.deepEqual(bulk.body.added.map((added) => [added.item.folderId, added.index]), [[folderId, 0], [folderId, 1]]);
  const one = await bed.call<{ item: { folderId: string | null }; index: number }>(
    'POST',
    `/api/rooms/${roomId}/playlist`,
    { title: 'E0', url: 'https://media.example.com/0.mp4', folderId, index: 0 },
    owner.token,
  );
  t.like(one.body, { index: 0, item: { folderId } });

  const moved = await bed.call<{ mediaId: string; index: number; folderId: string | null }>(
    'POST',
    `/api/rooms/${roomId}/playlist/${loose.body.item.id}/move`,
    { toIndex: 3, folderId },
    owner.token,
  );
  t.like(moved.body, { index: 3, folderId });
  const out = await bed.call<{ folderId: string | null }>('POST', `/api/rooms/${roomId}/playlist/${loose.body.item.id}/move`, { toIndex: 1, folderId: null }, owner.token);
  t.is(out.body.folderId, null);

  const renamed = await bed.call<{ folder: Folder }>('PATCH', `/api/rooms/${roomId}/playlist/folders/${folderId}`, { title: 'Season One' }, owner.token);
  t.like(renamed.body.folder, { id: folderId, title: 'Season One' });
  const badTitle = await bed.call<{ code: string; message: string }>('PATCH', `/api/rooms/${roomId}/playlist/folders/${folderId}`, { title: '' }, owner.token);
  t.is(badTitle.status, 400);
  t.regex(badTitle.body.message, /title/);
  const folderMoved = await bed.call<{ folderId: string; index: number }>('POST', `/api/rooms/${roomId}/playlist/folders/${folderId}/move`, { toIndex: 1 }, owner.token);
  t.like(folderMoved.body, { folderId, index: 1 });

  const view = await bed.call<{ playlist: Array<{ id: string; title: string; folderId: string | null }>; playlistFolders: Folder[] }>('GET', `/api/rooms/${roomId}`, undefined, owner.token);
  t.deepEqual(view.body.playlist.map((item) => [item.title, item.folderId]), [['Loose', null], ['E0', folderId], ['E1', folderId], ['E2', folderId]]);
  t.like(view.body.playlistFolders, [{ id: folderId, title: 'Season One', index: 1 }]);

  const noChoice = await bed.call<{ message: string }>('DELETE', `/api/rooms/${roomId}/playlist/folders/${folderId}`, undefined, owner.token);
  t.is(noChoice.status, 400);
  t.regex(noChoice.body.message, /withItems/);
  const played = await bed.call<{ playback: { mediaId: string | null } }>('POST', `/api/rooms/${roomId}/playlist/folders/${folderId}/play`, { order: 'in_order' }, owner.token);
  t.is(played.status, 200);
  t.is(played.body.playback.mediaId, view.body.playlist[1]!.id, 'the folder\'s first item is current');
  const badOrder = await bed.call<{ message: string }>('POST', `/api/rooms/${roomId}/playlist/folders/${folderId}/play`, { order: 'backwards' }, owner.token);
  t.is(badOrder.status, 400);
  t.regex(badOrder.body.message, /order/);
  const removed = await bed.call<{ folderId: string; removedItems: number }>('DELETE', `/api/rooms/${roomId}/playlist/folders/${folderId}?withItems=true`, undefined, owner.token);
  t.like(removed.body, { folderId, removedItems: 3 });
  const after = await bed.call<{ items: Array<{ title: string }> }>('GET', `/api/rooms/${roomId}/playlist`, undefined, owner.token);
  t.deepEqual(after.body.items.map((item) => item.title), ['Loose']);
});

test('WebSocket: folder commands answer and every socket sees the folder events', async (t) => {
  const { bed } = g;
  const owner = await bed.signUp('fws');
  const viewer = await bed.signUp('fwsv');
  const roomId = (await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Folders WS' }, owner.token)).body.room.id;
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, viewer.token);
  const [mine, theirs] = [await open(bed, roomId, owner), await open(bed, roomId, viewer)];
  try {
    const added = await mine.command({ kind: 'playlist.folder.add', title: 'Tonight' });
    const folder = (added.result as { folder: Folder }).folder;
    await theirs.waitForEvent((m) => m.event.type === 'playlist' && m.event.op === 'folderAdded' && m.event.folder.id === folder.id);
    const pushed = await mine.command({ kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/f.mp4', folderId: folder.id });
    t.like(pushed.result, { index: 0, item: { folderId: folder.id } });
    await theirs.waitForEvent((m) => m.event.type === 'playlist' && m.event.op === 'added' && m.event.item.folderId === folder.id);
    await mine.command({ kind: 'playlist.folder.remove', folderId: folder.id, withItems: false });
    const removed = await theirs.waitForEvent((m) => m.event.type === 'playlist' && m.event.op === 'folderRemoved');
    t.like(removed.event, { folderId: folder.id, withItems: false });
  } finally {
    await Promise.all([mine.close(), theirs.close()]);
  }
});

test('gRPC: the folder RPCs and folder_id answer as HTTP does', async (t) => {
  const owner = await g.user('fgrpc');
  const { room } = await owner.as.rooms.CreateRoom({ name: 'Folders gRPC', visibility: 'ROOM_VISIBILITY_HIDDEN' });
  const roomId = room!.id;
  const top = await owner.as.playlist.Push({ roomId, title: 'Top', url: 'https://media.example.com/t.mp4' });
  t.is(top.item!.folderId, undefined, 'folder_id is absent at the top level');
  const { folder } = await owner.as.playlist.AddFolder({ roomId, title: 'Season 1' });
  t.like(plain(folder), { title: 'Season 1', index: 1, createdBy: owner.member.userId });
  const inside = await owner.as.playlist.Push({ roomId, title: 'E1', url: 'https://media.example.com/e1.mp4', folderId: folder!.id });
  t.is(inside.item!.folderId, folder!.id);
  const inserted = await owner.as.playlist.Insert({ roomId, index: 0, title: 'E0', url: 'https://media.example.com/e0.mp4', folderId: folder!.id });
  t.is(inserted.index, 0);

  t.like(plain(await owner.as.playlist.Move({ roomId, mediaId: top.item!.id, toIndex: 2, folderId: folder!.id })), { index: 2, folderId: folder!.id });
  const outMove = plain(await owner.as.playlist.Move({ roomId, mediaId: top.item!.id, toIndex: 0, folderId: '' }));
  t.deepEqual(outMove, { mediaId: top.item!.id, index: 0 }, '"" moves to the top level');
  t.like(plain(await owner.as.playlist.RenameFolder({ roomId, folderId: folder!.id, title: 'Season One' })), { folder: { title: 'Season One' } });
  t.deepEqual(plain(await owner.as.playlist.MoveFolder({ roomId, folderId: folder!.id, toIndex: 0 })), { folderId: folder!.id, index: 0 });
  const bad = await refused(t, owner.as.playlist.AddFolder({ roomId, title: '  ' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.regex(bad.message, /title/);
  await refused(t, owner.as.playlist.RemoveFolder({ roomId, folderId: 'nope', withItems: true }), 'not_found', grpc.status.NOT_FOUND);

  const view = await owner.as.rooms.GetRoom({ roomId });
  const http = await g.bed.call<MemberRoomView>('GET', `/api/rooms/${roomId}`, undefined, owner.member.token);
  t.deepEqual(plain(view.member!.playlist!.items), http.body.playlist!.map(mediaMessage), 'the same items, folder_id included');
  t.deepEqual(plain(view.member!.playlistFolders), http.body.playlistFolders);
  const played = await owner.as.playlist.PlayFolder({ roomId, folderId: folder!.id, order: 'FOLDER_PLAY_ORDER_IN_ORDER' });
  t.is(played.playback!.mediaId, inserted.item!.id, 'E0 comes first in the folder');
  const unspecified = await refused(t, owner.as.playlist.PlayFolder({ roomId, folderId: folder!.id }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.regex(unspecified.message, /order/);
  t.deepEqual(plain(await owner.as.playlist.RemoveFolder({ roomId, folderId: folder!.id, withItems: false })), { folderId: folder!.id, removedItems: 0 });
});
