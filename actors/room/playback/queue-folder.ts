/**
 * Playing a folder (playlist.folder.play): the queue goes on within the folder, in its order or
 * in a shuffled order fixed when it started, until the folder's end; then the room's queue mode
 * applies as usual, `next` and `repeat_all` going on after the folder rather than after the last
 * item played. Pure; the actor keeps the state and stores it (docs/2026-11-26-playlist-folders.md).
 */
import type { MediaItem, QueueMode } from '../../../contracts/room/model.js';
import type { PlaylistEntry } from '../records.js';
import { followingItem } from './queue.js';

/** A folder playing (playlist.folder.play), as the actor holds and stores it (folder-play.ts). */
export type FolderPlayOrder = 'in_order' | 'shuffle';

export interface FolderPlay {
  folderId: string;
  order: FolderPlayOrder;
  /** The item the folder play put on; another current item means someone chose otherwise. */
  current: string;
  /** For a shuffle: the items still to play, in the order drawn at the start. */
  remaining: string[];
}

/** The folder play of `itemIds` (the folder's items in order, not empty): its first item is `current`. */
export function startFolderPlay(folderId: string, order: FolderPlayOrder, itemIds: readonly string[], random: () => number = Math.random): FolderPlay {
  const ids = [...itemIds];
  if (order === 'shuffle') {
    for (let i = ids.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
  }
  const [current, ...rest] = ids;
  return { folderId, order, current: current!, remaining: order === 'shuffle' ? rest : [] };
}

export type FolderStep =
  /** Not playing a folder (none started, or someone chose another item since). */
  | { kind: 'none' }
  | { kind: 'next'; mediaId: string; state: FolderPlay }
  /** The folder is done: `anchor` is its last item, where `next` goes on from. */
  | { kind: 'done'; anchor: string };

/** What the folder play says when `currentId` ends; `itemIds` are the folder's items now, in order. */
export function folderStep(state: FolderPlay | null, currentId: string, itemIds: readonly string[]): FolderStep {
  if (!state || state.current !== currentId) return { kind: 'none' };
  // Items removed from the folder (or moved out of it) since are skipped.
  const inFolder = new Set(itemIds);
  const ahead = state.order === 'shuffle' ? state.remaining.filter((id) => inFolder.has(id)) : itemIds.slice(itemIds.indexOf(currentId) + 1);
  if (state.order === 'in_order' && !inFolder.has(currentId)) return { kind: 'done', anchor: currentId };
  const [next, ...rest] = ahead;
  if (next !== undefined) return { kind: 'next', mediaId: next, state: { ...state, current: next, remaining: state.order === 'shuffle' ? rest : [] } };
  return { kind: 'done', anchor: itemIds.at(-1) ?? currentId };
}

/**
 * After a folder's end: `next` and `repeat_all` go on from the folder's last item (after the
 * folder); the other modes from the item that ended, as always.
 */
export function followingAfterFolder(
  mode: QueueMode,
  playlist: readonly PlaylistEntry[],
  currentId: string,
  anchor: string,
  random: () => number,
  votes: (mediaId: string) => number,
): MediaItem | null {
  const from = mode === 'next' || mode === 'repeat_all' ? anchor : currentId;
  return followingItem(mode, playlist, from, random, votes);
}
