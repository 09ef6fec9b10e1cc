/**
 * The playlist as a tree: top-level entries (items outside folders, and folders with their
 * items). The room sends it flat (items in play order, each naming its folder, and folders
 * with their top-level index); these pure functions turn one form into the other and apply a
 * `playlist` event, so the web client follows the room's order exactly
 * (docs/2026-11-26-playlist-folders.md).
 */
import type { RoomEvent } from './events.js';
import type { MediaItem, PlaylistFolder } from './model.js';

export type PlaylistTreeEntry = { kind: 'item'; item: MediaItem } | { kind: 'folder'; folder: PlaylistFolder; items: MediaItem[] };

export interface FlatPlaylist {
  playlist: MediaItem[];
  playlistFolders: PlaylistFolder[];
}

/** Builds the tree from the flat form; items naming an unknown folder are shown at the top level. */
export function playlistTree(items: readonly MediaItem[], folders: readonly PlaylistFolder[]): PlaylistTreeEntry[] {
  const byId = new Map(folders.map((folder) => [folder.id, { kind: 'folder' as const, folder, items: [] as MediaItem[] }]));
  const top: PlaylistTreeEntry[] = [];
  for (const item of items) {
    const folder = item.folderId === null ? undefined : byId.get(item.folderId);
    if (folder) folder.items.push(item);
    else top.push({ kind: 'item', item: { ...item, folderId: null } });
  }
  for (const folder of [...byId.values()].sort((a, b) => a.folder.index - b.folder.index)) {
    top.splice(Math.min(folder.folder.index, top.length), 0, folder);
  }
  return top;
}

/** The flat form of a tree: items in play order, folders with their index now. */
export function flattenPlaylist(tree: readonly PlaylistTreeEntry[]): FlatPlaylist {
  const playlist: MediaItem[] = [];
  const playlistFolders: PlaylistFolder[] = [];
  tree.forEach((entry, index) => {
    if (entry.kind === 'item') playlist.push({ ...entry.item, folderId: null });
    else {
      playlistFolders.push({ ...entry.folder, index });
      for (const item of entry.items) playlist.push({ ...item, folderId: entry.folder.id });
    }
  });
  return { playlist, playlistFolders };
}

const clampInsert = <T>(list: T[], index: number, value: T): T[] => {
  const next = [...list];
  next.splice(Math.min(index, next.length), 0, value);
  return next;
};

/** The tree without `mediaId`, wherever it is. */
function withoutItem(tree: readonly PlaylistTreeEntry[], mediaId: string): PlaylistTreeEntry[] {
  return tree
    .filter((entry) => entry.kind === 'folder' || entry.item.id !== mediaId)
    .map((entry) => (entry.kind === 'folder' ? { ...entry, items: entry.items.filter((item) => item.id !== mediaId) } : entry));
}

/** Puts `item` at `index` of its container (`folderId`: a folder, null: the top level). */
function withItemAt(tree: readonly PlaylistTreeEntry[], item: MediaItem, folderId: string | null, index: number): PlaylistTreeEntry[] {
  if (folderId === null) return clampInsert([...tree], index, { kind: 'item', item: { ...item, folderId: null } });
  return tree.map((entry) =>
    entry.kind === 'folder' && entry.folder.id === folderId ? { ...entry, items: clampInsert(entry.items, index, { ...item, folderId }) } : entry,
  );
}

function findItem(tree: readonly PlaylistTreeEntry[], mediaId: string): MediaItem | undefined {
  for (const entry of tree) {
    if (entry.kind === 'item' && entry.item.id === mediaId) return entry.item;
    if (entry.kind === 'folder') {
      const found = entry.items.find((item) => item.id === mediaId);
      if (found) return found;
    }
  }
  return undefined;
}

/** Applies one `playlist` event to the flat form. */
export function applyPlaylistEvent(flat: FlatPlaylist, event: Extract<RoomEvent, { type: 'playlist' }>): FlatPlaylist {
  const tree = playlistTree(flat.playlist, flat.playlistFolders);
  switch (event.op) {
    case 'added':
      return flattenPlaylist(withItemAt(withoutItem(tree, event.item.id), event.item, event.item.folderId, event.index));
    case 'moved': {
      const item = findItem(tree, event.mediaId);
      if (!item) return flat;
      return flattenPlaylist(withItemAt(withoutItem(tree, event.mediaId), item, event.folderId, event.toIndex));
    }
    case 'removed':
      return flattenPlaylist(withoutItem(tree, event.mediaId));
    case 'cleared':
      return { playlist: [], playlistFolders: [] };
    case 'edited':
      return { ...flat, playlist: flat.playlist.map((item) => (item.id === event.item.id ? event.item : item)) };
    case 'folderAdded':
      return flattenPlaylist(clampInsert(tree, event.folder.index, { kind: 'folder', folder: event.folder, items: [] }));
    case 'folderRenamed':
      return { ...flat, playlistFolders: flat.playlistFolders.map((folder) => (folder.id === event.folderId ? { ...folder, title: event.title } : folder)) };
    case 'folderMoved': {
      const from = tree.findIndex((entry) => entry.kind === 'folder' && entry.folder.id === event.folderId);
      if (from < 0) return flat;
      const rest = [...tree];
      const [moving] = rest.splice(from, 1);
      return flattenPlaylist(clampInsert(rest, event.toIndex, moving!));
    }
    case 'folderRemoved': {
      const at = tree.findIndex((entry) => entry.kind === 'folder' && entry.folder.id === event.folderId);
      const entry = tree[at];
      if (!entry || entry.kind !== 'folder') return flat;
      const kept: PlaylistTreeEntry[] = event.withItems ? [] : entry.items.map((item) => ({ kind: 'item', item: { ...item, folderId: null } }));
      return flattenPlaylist([...tree.slice(0, at), ...kept, ...tree.slice(at + 1)]);
    }
  }
}
