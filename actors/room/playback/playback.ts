/**
 * Arithmetic of the authoritative playback clock. The state says where playback was at
 * `updatedAt` (server ms); everything else is derived from it, so a playing room needs no
 * writes to stay correct and a new activation can extrapolate from the last stored state.
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { PlaybackState } from '../../../contracts/room/model.js';

/**
 * Versions are handed out in blocks: an activation may use versions up to the reserved
 * ceiling it stored, and the next activation starts above that ceiling. A version therefore
 * never repeats across a failover even though playback itself is persisted lazily, so a
 * client's `expectVersion` from before a crash can never match a different state after it.
 */
export const VERSION_BLOCK = 1000;

/** Seconds into the media at server time `now`. */
export function positionAt(state: PlaybackState, now: number): number {
  if (!state.playing) return state.position;
  const elapsed = Math.max(0, now - state.updatedAt);
  return Math.min(ROOM_LIMITS.positionMaxSeconds, state.position + (elapsed / 1000) * state.rate);
}

/**
 * How long a command took from the client to the room, for placing a seek or play where the
 * sender meant it: never negative (clocks disagree) and at most `transitCompensationMaxMs`
 * (a stalled client must not fast-forward everyone).
 */
export function transitMs(sentAt: number | undefined, receivedAt: number): number {
  if (sentAt === undefined || !Number.isFinite(sentAt)) return 0;
  return Math.min(ROOM_LIMITS.transitCompensationMaxMs, Math.max(0, receivedAt - sentAt));
}

/**
 * The state a new activation starts from: the stored one carried forward to `now`. A start
 * scheduled for later than `now` (`updatedAt` ahead) is kept as it is, so it still happens at
 * the instant every client was told.
 */
export function extrapolate(stored: PlaybackState, now: number): PlaybackState {
  if (stored.playing && stored.updatedAt > now) return { ...stored };
  return { ...stored, position: positionAt(stored, now), updatedAt: now };
}
