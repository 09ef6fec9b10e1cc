/**
 * What the phone's lock screen, a headset's buttons and the picture-in-picture window may do to
 * the room (the Media Session API): which actions a member gets and what each sends, and the
 * position the lock screen shows. The browser part (use-media-session.ts) applies these to
 * `navigator.mediaSession`; this part has no DOM, so the unit tests run it under Node.
 *
 * The actions go through the same steering as the player's controls (`control_playback` to play,
 * pause and seek; also `set_current_media` for next and previous). A member without the
 * permission still gets play and pause handlers, which refuse in words: without a handler
 * Chromium plays or pauses the element itself, and the sync would then fight the headset.
 */
import { roomPositionAt, type RoomPlayback } from '../sync/index.js';

/** The actions svc answers (a subset of the DOM's MediaSessionAction). */
export const LOCK_SCREEN_ACTIONS = ['play', 'pause', 'seekto', 'seekbackward', 'seekforward', 'previoustrack', 'nexttrack'] as const;
export type LockScreenAction = (typeof LOCK_SCREEN_ACTIONS)[number];

/** What the browser passes a handler (MediaSessionActionDetails, the fields used here). */
export interface LockScreenDetails {
  seekTime?: number | undefined;
  seekOffset?: number | undefined;
}

export type LockScreenHandler = (details: LockScreenDetails) => void;

/** The room commands behind the actions: the player's controls send them the same way. */
export interface RoomSteering {
  play(): void;
  pause(): void;
  seek(position: number): void;
  next(): void;
  previous(): void;
  /** A member without the permission pressed play or pause: say why nothing happens. */
  refuse(): void;
}

export interface LockScreenRights {
  /** `control_playback`. */
  steer: boolean;
  /** `control_playback` and `set_current_media`. */
  skip: boolean;
  /** The item can be sought (not live, length known). */
  seek: boolean;
}

/** A seek button without an offset moves this far (what Chromium's and iOS's defaults show). */
export const DEFAULT_SEEK_OFFSET_S = 10;

/**
 * The handler of each action for a member with `rights` (null: none, the browser hides the
 * button). `position` and `duration` are read when an action comes, for the relative seeks.
 */
export function lockScreenHandlers(
  rights: LockScreenRights,
  steering: RoomSteering,
  position: () => number,
  duration: () => number,
): Record<LockScreenAction, LockScreenHandler | null> {
  const clamp = (seconds: number): number => Math.min(Math.max(0, seconds), duration());
  const seek = rights.steer && rights.seek;
  return {
    play: rights.steer ? () => steering.play() : () => steering.refuse(),
    pause: rights.steer ? () => steering.pause() : () => steering.refuse(),
    seekto: seek ? (details) => details.seekTime !== undefined && Number.isFinite(details.seekTime) && steering.seek(clamp(details.seekTime)) : null,
    seekbackward: seek ? (details) => steering.seek(clamp(position() - (details.seekOffset ?? DEFAULT_SEEK_OFFSET_S))) : null,
    seekforward: seek ? (details) => steering.seek(clamp(position() + (details.seekOffset ?? DEFAULT_SEEK_OFFSET_S))) : null,
    previoustrack: rights.skip ? () => steering.previous() : null,
    nexttrack: rights.skip ? () => steering.next() : null,
  };
}

/** MediaPositionState: what the lock screen's progress bar shows and extrapolates by itself. */
export interface LockScreenPosition {
  duration: number;
  playbackRate: number;
  position: number;
}

/**
 * The room's position as the lock screen should show it at server time `serverNow`, or null when
 * there is no length to show against (live media, metadata not loaded): the browser refuses a
 * position without a finite duration. The rate is the room's (the lock screen extrapolates with
 * it while playing); the position never leaves [0, duration], which the browser also demands.
 */
export function lockScreenPosition(playback: RoomPlayback, serverNow: number, duration: number | undefined): LockScreenPosition | null {
  if (duration === undefined || !Number.isFinite(duration) || duration <= 0) return null;
  const position = Math.min(Math.max(0, roomPositionAt(playback, serverNow)), duration);
  return { duration, playbackRate: playback.rate > 0 ? playback.rate : 1, position };
}
