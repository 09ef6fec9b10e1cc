/**
 * The room's playlist state (items and folders) seen as merged rows (playlist.ts) and back:
 * handlers compute the next rows, write them, then install them with `installRows`.
 */
import type { MediaItem, PlaylistFolder } from '../../../contracts/room/model.js';
import type { RoomCore } from '../core.js';
import type { FolderEntry, FolderRecord, PlaylistEntry } from '../records.js';
import { mergeRows, topLevelIndex, type PlaylistRow } from './playlist.js';

export function rowsOf(core: RoomCore): PlaylistRow[] {
  return mergeRows(
    core.playlist,
    core.folders.map((f) => ({ id: f.folder.id, sortKey: f.sortKey })),
  );
}

/** Installs `rows` as the room's order; `extra` supplies items and folders the rows add. */
export function installRows(core: RoomCore, rows: readonly PlaylistRow[], extra: { item?: MediaItem; folder?: FolderRecord } = {}): void {
  const items = new Map(core.playlist.map((e) => [e.item.id, e.item]));
  if (extra.item) items.set(extra.item.id, extra.item);
  const folders = new Map(core.folders.map((f) => [f.folder.id, f.folder]));
  if (extra.folder) folders.set(extra.folder.id, extra.folder);
  const playlist: PlaylistEntry[] = [];
  const nextFolders: FolderEntry[] = [];
  for (const row of rows) {
    if (row.kind === 'folder') {
      const folder = folders.get(row.id);
      if (folder) nextFolders.push({ folder, sortKey: row.sortKey });
      continue;
    }
    const item = items.get(row.id);
    if (!item) continue;
    playlist.push({ item: item.folderId === row.folderId ? item : { ...item, folderId: row.folderId }, sortKey: row.sortKey });
  }
  core.playlist = playlist;
  core.folders = nextFolders;
}

export function findFolder(core: RoomCore, folderId: string): FolderRecord | undefined {
  return core.folders.find((f) => f.folder.id === folderId)?.folder;
}

export function folderView(rows: readonly PlaylistRow[], folder: FolderRecord): PlaylistFolder {
  return { ...folder, index: topLevelIndex(rows, folder.id) };
}

/** The folders as members see them, in order. */
export function folderViews(core: RoomCore): PlaylistFolder[] {
  const rows = rowsOf(core);
  return core.folders.map((f) => folderView(rows, f.folder));
}
