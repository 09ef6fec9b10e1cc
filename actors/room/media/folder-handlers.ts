/**
 * Playlist folders (docs/2026-11-26-playlist-folders.md): add, rename, move among the top-level
 * entries, remove (keeping its items at the top level where they were, or with them). The
 * permissions are the item commands' own: adding needs create_media_resource, renaming
 * edit_media_resource, moving reorder_media_resources, removing delete_media_resource. Playing
 * a folder is the queue's (playback/folder-play-handlers.ts).
 */
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { FieldIssue } from '../../../errors/index.js';
import type { RoomCore, Turn } from '../core.js';
import type { FolderRecord } from '../records.js';
import { checkLabel } from '../validate.js';
import { deleteFolder, insertFolder, renameFolder, setPlaylistPlaces } from './playlist-store.js';
import { folderItemIds, placeRows, rowIndexFor, topLevelCount } from './playlist.js';
import { findFolder, folderView, installRows, rowsOf } from './playlist-state.js';

function folderTitle(title: string): string {
  const issues: FieldIssue[] = [];
  const text = checkLabel(title, 'title', ROOM_LIMITS.titleMaxChars, issues);
  if (issues.length > 0) throw AppError.invalid(issues);
  return text;
}

function existingFolder(core: RoomCore, folderId: string): FolderRecord {
  const folder = findFolder(core, folderId);
  if (!folder) throw new AppError('not_found', `folder ${folderId} is not in this room's playlist`);
  return folder;
}

export async function addFolder(core: RoomCore, command: RoomCommandOf<'playlist.folder.add'>, turn: Turn): Promise<RoomResults['playlist.folder.add']> {
  core.require(turn.access, 'create_media_resource', 'adding a playlist folder');
  if (core.folders.length >= ROOM_LIMITS.playlistMaxFolders) {
    throw new AppError('limit_exceeded', `the playlist has the most folders it may have (${ROOM_LIMITS.playlistMaxFolders})`);
  }
  const title = folderTitle(command.title);
  const rows = rowsOf(core);
  const length = topLevelCount(rows);
  const index = command.index ?? length;
  if (index > length) throw AppError.invalid([{ key: 'index', message: `must be at most ${length} (the number of top-level entries)` }]);
  const folder: FolderRecord = { id: randomUUID(), title, createdBy: turn.access.userId, createdAt: turn.now };
  const change = placeRows(rows, [{ kind: 'folder', id: folder.id, folderId: null, sortKey: 0 }], rowIndexFor(rows, null, index));
  const sortKey = change.written.find((row) => row.id === folder.id)!.sortKey;
  const view = folderView(change.next, folder);
  const result = await core.commit(turn, 'add a playlist folder', async (client) => {
    await insertFolder(client, core.id, { folder, sortKey });
    await setPlaylistPlaces(client, core.id, change.written.filter((row) => row.id !== folder.id));
    return { folder: view };
  });
  installRows(core, change.next, { folder });
  core.publish({ type: 'playlist', op: 'folderAdded', folder: view });
  return result;
}

export async function renamePlaylistFolder(
  core: RoomCore,
  command: RoomCommandOf<'playlist.folder.rename'>,
  turn: Turn,
): Promise<RoomResults['playlist.folder.rename']> {
  core.require(turn.access, 'edit_media_resource', 'renaming a playlist folder');
  const folder = existingFolder(core, command.folderId);
  const title = folderTitle(command.title);
  const renamed = { ...folder, title };
  const view = folderView(rowsOf(core), renamed);
  const result = await core.commit(turn, 'rename a playlist folder', async (client) => {
    await renameFolder(client, core.id, folder.id, title);
    return { folder: view };
  });
  core.folders = core.folders.map((f) => (f.folder.id === folder.id ? { folder: renamed, sortKey: f.sortKey } : f));
  core.publish({ type: 'playlist', op: 'folderRenamed', folderId: folder.id, title });
  return result;
}

export async function movePlaylistFolder(core: RoomCore, command: RoomCommandOf<'playlist.folder.move'>, turn: Turn): Promise<RoomResults['playlist.folder.move']> {
  core.require(turn.access, 'reorder_media_resources', 'reordering the playlist');
  const folder = existingFolder(core, command.folderId);
  const rows = rowsOf(core);
  // The folder moves as a block: its row and its items, in order.
  const block = rows.filter((row) => row.id === folder.id || (row.kind === 'item' && row.folderId === folder.id));
  const rest = rows.filter((row) => !block.includes(row));
  const last = topLevelCount(rest);
  if (command.toIndex > last) throw AppError.invalid([{ key: 'toIndex', message: `must be at most ${last}` }]);
  const done = { folderId: folder.id, index: command.toIndex };
  if (rowIndexFor(rows, null, command.toIndex) === rows.indexOf(block[0]!)) return done;
  const change = placeRows(rest, block, rowIndexFor(rest, null, command.toIndex));
  const result = await core.commit(turn, 'move a playlist folder', async (client) => {
    await setPlaylistPlaces(client, core.id, change.written);
    return done;
  });
  installRows(core, change.next);
  core.publish({ type: 'playlist', op: 'folderMoved', folderId: folder.id, toIndex: command.toIndex });
  return result;
}

export async function removePlaylistFolder(
  core: RoomCore,
  command: RoomCommandOf<'playlist.folder.remove'>,
  turn: Turn,
): Promise<RoomResults['playlist.folder.remove']> {
  core.require(turn.access, 'delete_media_resource', 'removing a playlist folder');
  const folder = existingFolder(core, command.folderId);
  const rows = rowsOf(core);
  const items = new Set(folderItemIds(rows, folder.id));
  const removedItems = command.withItems ? items.size : 0;
  const consequences = core.playlistChanging({ op: 'removed', mediaIds: command.withItems ? [...items] : [], folderId: folder.id }, turn.access.userId);
  const result = await core.commit(turn, 'remove a playlist folder', async (client) => {
    await deleteFolder(client, core.id, folder.id, command.withItems);
    await consequences.write(client);
    return { folderId: folder.id, removedItems };
  });
  // Kept items stay where they were, now at the top level (the folder row's ON DELETE SET NULL).
  const next = rows
    .filter((row) => row.id !== folder.id && !(command.withItems && items.has(row.id)))
    .map((row) => (items.has(row.id) ? { ...row, folderId: null } : row));
  installRows(core, next);
  core.publish({ type: 'playlist', op: 'folderRemoved', folderId: folder.id, withItems: command.withItems });
  await consequences.apply();
  return result;
}
