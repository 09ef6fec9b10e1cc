/**
 * The length of the current item as the room knows it. The actor never fetches media, so the
 * players tell it: each reports the duration its element saw when it loads the item and when
 * it reaches the end. The room keeps the longest report, so a client that lies can make an
 * item look longer (the room then waits for someone with control_playback to move on) but
 * never shorter: the end of an item is the room's own clock passing that length, not anyone's
 * say-so. Held in memory for the current item only; a new activation learns it again from the
 * next reports (docs/2026-11-26-queue-modes.md).
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { StateSlice } from '../core.js';

/** A reported duration the room can use: positive, finite, within the position bound. */
export function usableDuration(seconds: number | undefined): number | undefined {
  if (seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return Math.min(seconds, ROOM_LIMITS.positionMaxSeconds);
}

export class MediaLength {
  private mediaId: string | null = null;
  private seconds: number | undefined;

  /** Records a report about `mediaId`; only the current item's reports are kept. */
  record(mediaId: string, currentId: string | null, seconds: number | undefined): void {
    const usable = usableDuration(seconds);
    if (usable === undefined || mediaId !== currentId) return;
    if (this.mediaId !== mediaId) {
      this.mediaId = mediaId;
      this.seconds = undefined;
    }
    this.seconds = Math.max(this.seconds ?? 0, usable);
  }

  /** The longest duration reported for `mediaId` while it was current, if any. */
  of(mediaId: string): number | undefined {
    return this.mediaId === mediaId ? this.seconds : undefined;
  }
}

/** The current item's length as players reported it, in memory only. */
export const MEDIA_LENGTH = new StateSlice('media length', () => new MediaLength());
