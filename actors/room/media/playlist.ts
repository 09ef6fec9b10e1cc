/**
 * Ordering of the playlist. Items and folders carry sort keys with gaps in one key space:
 * merged by key they are the playlist in play order, each folder row followed by its own
 * items (docs/2026-11-26-playlist-folders.md). Inserting or moving one row writes one row;
 * moving a folder writes its block; when neighbours leave no room the whole list is renumbered
 * (at most `playlistMaxItems + playlistMaxFolders` rows, rarely). Functions here are pure: they
 * return the next rows and the rows to write, and the actor applies them after the write commits.
 */
import type { PlaylistEntry } from '../records.js';

export const SORT_KEY_GAP = 1024;

/** One row of the merged order: an item (in a folder or not) or a folder. */
export interface PlaylistRow {
  kind: 'item' | 'folder';
  id: string;
  /** For an item, its folder; null for an item at the top level and for a folder. */
  folderId: string | null;
  sortKey: number;
}

export interface RowsChange {
  next: PlaylistRow[];
  /** Rows whose sort key or folder changed, and new rows: each must be written. */
  written: PlaylistRow[];
}

export function mergeRows(items: readonly PlaylistEntry[], folders: ReadonlyArray<{ id: string; sortKey: number }>): PlaylistRow[] {
  const rows: PlaylistRow[] = [
    ...items.map((e) => ({ kind: 'item' as const, id: e.item.id, folderId: e.item.folderId, sortKey: e.sortKey })),
    ...folders.map((f) => ({ kind: 'folder' as const, id: f.id, folderId: null, sortKey: f.sortKey })),
  ];
  return rows.sort((a, b) => a.sortKey - b.sortKey || (a.kind === b.kind ? (a.id < b.id ? -1 : 1) : a.kind === 'folder' ? -1 : 1));
}

const isTop = (row: PlaylistRow): boolean => row.kind === 'folder' || row.folderId === null;

/** How many top-level entries (folders, and items outside folders) there are. */
export function topLevelCount(rows: readonly PlaylistRow[]): number {
  return rows.filter(isTop).length;
}

/** A top-level entry's position among the top-level entries. */
export function topLevelIndex(rows: readonly PlaylistRow[], id: string): number {
  return rows.filter(isTop).findIndex((row) => row.id === id);
}

export function folderItemIds(rows: readonly PlaylistRow[], folderId: string): string[] {
  return rows.filter((row) => row.kind === 'item' && row.folderId === folderId).map((row) => row.id);
}

/** An item's position within its container (its folder's items, or the top-level entries). */
export function containerIndex(rows: readonly PlaylistRow[], row: PlaylistRow): number {
  return row.folderId === null ? topLevelIndex(rows, row.id) : folderItemIds(rows, row.folderId).indexOf(row.id);
}

/** Where in `rows` the `index`-th entry of a container starts (`index` = its size: after its last). */
export function rowIndexFor(rows: readonly PlaylistRow[], folderId: string | null, index: number): number {
  if (folderId === null) {
    let seen = 0;
    for (let i = 0; i < rows.length; i++) {
      if (!isTop(rows[i]!)) continue;
      if (seen === index) return i;
      seen++;
    }
    return rows.length;
  }
  const header = rows.findIndex((row) => row.kind === 'folder' && row.id === folderId);
  return header + 1 + index;
}

/**
 * Places `block` (rows not in `rows`, in order) at `at`: keys spread in the gap between the
 * neighbours when it has room, else everything is renumbered.
 */
export function placeRows(rows: readonly PlaylistRow[], block: readonly PlaylistRow[], at: number): RowsChange {
  const before = rows[at - 1]?.sortKey;
  const after = rows[at]?.sortKey;
  const slots = block.length + 1;
  const low = before ?? (after === undefined ? -SORT_KEY_GAP : after - slots * SORT_KEY_GAP);
  const high = after ?? low + slots * SORT_KEY_GAP;
  if (high - low >= slots) {
    const step = Math.floor((high - low) / slots);
    const placed = block.map((row, i) => ({ ...row, sortKey: low + step * (i + 1) }));
    return { next: [...rows.slice(0, at), ...placed, ...rows.slice(at)], written: placed };
  }
  const previous = new Map([...rows, ...block].map((row) => [row.id, row]));
  const next = [...rows.slice(0, at), ...block, ...rows.slice(at)].map((row, i) => ({ ...row, sortKey: i * SORT_KEY_GAP }));
  const written = next.filter((row) => {
    const was = previous.get(row.id);
    return block.some((b) => b.id === row.id) || was?.sortKey !== row.sortKey;
  });
  return { next, written };
}
