/**
 * Ordering of the playlist. Items carry sort keys with gaps, so inserting or moving one item
 * writes one row; when two neighbours leave no room between them the whole list is
 * renumbered (at most `playlistMaxItems` rows, rarely). Functions here are pure: they return
 * the next list and the rows to write, and the actor applies them after the write commits.
 */
import type { MediaItem } from '../../../contracts/room/model.js';
import type { PlaylistEntry } from '../store/room-store.js';

export const SORT_KEY_GAP = 1024;

export interface PlaylistChange {
  next: PlaylistEntry[];
  /** Entries (other than a newly inserted one) whose sort key changed and must be written. */
  rekeyed: PlaylistEntry[];
}

function keyBetween(before: number | undefined, after: number | undefined): number | undefined {
  if (before === undefined && after === undefined) return 0;
  if (before === undefined) return (after as number) - SORT_KEY_GAP;
  if (after === undefined) return before + SORT_KEY_GAP;
  return after - before >= 2 ? Math.floor((before + after) / 2) : undefined;
}

/** Places `item` at `index` of `list` (which must not contain it). */
function place(list: readonly PlaylistEntry[], item: MediaItem, index: number): { next: PlaylistEntry[]; entry: PlaylistEntry; rekeyed: PlaylistEntry[] } {
  const key = keyBetween(list[index - 1]?.sortKey, list[index]?.sortKey);
  if (key !== undefined) {
    const entry = { item, sortKey: key };
    return { next: [...list.slice(0, index), entry, ...list.slice(index)], entry, rekeyed: [] };
  }
  const ordered = [...list.slice(0, index).map((e) => e.item), item, ...list.slice(index).map((e) => e.item)];
  const next = ordered.map((it, i) => ({ item: it, sortKey: i * SORT_KEY_GAP }));
  const entry = next[index] as PlaylistEntry;
  const previousKeys = new Map(list.map((e) => [e.item.id, e.sortKey]));
  const rekeyed = next.filter((e) => e !== entry && previousKeys.get(e.item.id) !== e.sortKey);
  return { next, entry, rekeyed };
}

export function insertAt(list: readonly PlaylistEntry[], item: MediaItem, index: number): PlaylistChange & { entry: PlaylistEntry } {
  return place(list, item, index);
}

/** Moves the entry at `from` so that it ends up at `toIndex` of the resulting list. */
export function moveTo(list: readonly PlaylistEntry[], from: number, toIndex: number): PlaylistChange {
  const moving = list[from] as PlaylistEntry;
  const rest = [...list.slice(0, from), ...list.slice(from + 1)];
  const placed = place(rest, moving.item, toIndex);
  return { next: placed.next, rekeyed: [...placed.rekeyed, placed.entry] };
}

export function indexOfMedia(list: readonly PlaylistEntry[], mediaId: string | null): number {
  return mediaId === null ? -1 : list.findIndex((e) => e.item.id === mediaId);
}
