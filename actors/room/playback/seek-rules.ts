/**
 * What playback may do in media that cannot seek (docs/2026-11-26-seekable-sources.md): whether
 * an item can seek is learned when it is added (media/seek-check.ts); here is what follows.
 */
import { AppError } from '../../../errors/index.js';
import type { MediaItem } from '../../../contracts/room/model.js';

/** The room never jumps in media that cannot seek: anywhere but back to its start is refused. */
export function checkSeekAllowed(item: MediaItem, position: number): void {
  if (item.seekable !== 'no' || position === 0) return;
  throw new AppError(
    'conflict',
    `"${item.title}" cannot seek: its server does not answer range requests, so everyone watches it from the start without jumping (only a restart from 0:00 is possible)`,
  );
}

/**
 * The position a play or pause of `item` may put the room at: the one the sender asked for,
 * except in media that cannot seek, where the room keeps its own (undefined: players there
 * cannot jump; they play on or hold where they are), a restart from 0 aside.
 */
export function reachablePosition(item: MediaItem, asked: number | undefined): number | undefined {
  return item.seekable === 'no' && asked !== 0 ? undefined : asked;
}
