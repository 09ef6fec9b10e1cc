/**
 * A byte budget for the playlist. `room.get` and `presence.enter` answer the whole playlist in
 * one NATS message, which cannot exceed NATS's `max_payload` (1 MiB by default); the per-item
 * limits alone allow far more (one item with 20 headers and 20 subtitles at their maximum
 * lengths is 68 KB of JSON, 178 KB with emoji titles, quoted header values and non-ASCII URLs).
 * Half of a default `max_payload` goes to the playlist; the rest stays for the members, bans
 * and everything else of the view (`docs/2026-11-21-room-actor.md`, Playlist).
 */
import { AppError } from '../../../errors/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { PlaylistEntry } from '../records.js';

/** The most UTF-8 bytes of JSON the items of one playlist may take together. */
export const PLAYLIST_MAX_BYTES = 512 * 1024;

/** Items never change once made (an edit makes a new one), so each is measured once. */
const sizes = new WeakMap<MediaItem, number>();

/** The bytes `item` takes in a view's playlist array (its JSON and a separating comma). */
export function itemBytes(item: MediaItem): number {
  let size = sizes.get(item);
  if (size === undefined) {
    size = Buffer.byteLength(JSON.stringify(item), 'utf8') + 1;
    sizes.set(item, size);
  }
  return size;
}

/** The bytes the items of `entries` take together. */
export function playlistBytes(entries: readonly PlaylistEntry[]): number {
  let total = 0;
  for (const entry of entries) total += itemBytes(entry.item);
  return total;
}

/**
 * Refuses with `limit_exceeded` when adding `item` (or putting it in place of the item
 * `replacingMediaId`) would take the playlist over its budget. A change that does not grow
 * the playlist is always allowed, so a list already over the budget (written before it
 * existed) can still be trimmed by editing.
 */
export function checkPlaylistBudget(entries: readonly PlaylistEntry[], item: MediaItem, replacingMediaId?: string): void {
  const before = playlistBytes(entries);
  const replaced = replacingMediaId === undefined ? undefined : entries.find((e) => e.item.id === replacingMediaId);
  const after = before - (replaced ? itemBytes(replaced.item) : 0) + itemBytes(item);
  if (after <= PLAYLIST_MAX_BYTES || after <= before) return;
  throw new AppError(
    'limit_exceeded',
    `the playlist would take ${after} bytes, over its budget of ${PLAYLIST_MAX_BYTES} bytes ` +
      `(this item takes ${itemBytes(item)}); remove items or use shorter titles, URLs, headers and subtitles`,
  );
}
