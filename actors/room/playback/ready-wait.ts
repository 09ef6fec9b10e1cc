/**
 * Waiting for everyone to be ready: a play is held while a present member's player is not
 * ready for the media, until they are or the room's ready timeout runs out; a member who
 * starts buffering pauses a playing room. The wait's state is RoomPlayback's; this is its
 * policy, run by the commands and timers that may start or end a wait.
 */
import type { PlaybackCause } from '../../../contracts/room/events.js';
import type { PlaybackState, PlaybackView } from '../../../contracts/room/model.js';
import { isFencedError } from '../../runtime/fencing.js';
import { messageOf } from '../../runtime/nats-errors.js';
import type { RoomCore } from '../core.js';
import type { Turn } from '../turn.js';
import { positionAt } from './playback.js';
import { PERSIST_RETRY_FIRST_MS, PLAYBACK, type PlaybackChange } from './room-playback.js';

/**
 * Starts playing with `patch` applied, unless the room waits for everyone to be ready and
 * someone is not: then it stays paused, holding the play until they are or the wait runs out
 * (a wait already open keeps its deadline: pressing play again does not extend it).
 * `startAt` schedules the start ahead in server time (`updatedAt` in the future).
 */
export function playChange(
  core: RoomCore,
  patch: Partial<Omit<PlaybackState, 'version'>>,
  cause: PlaybackCause,
  by: string | null,
  options: { resetStragglers?: boolean; startAt?: number } = {},
): PlaybackChange {
  const now = core.now();
  const play = PLAYBACK.of(core);
  // Readiness is for the media about to play, which the patch may be switching to.
  const mediaId = patch.mediaId !== undefined ? patch.mediaId : core.playback.mediaId;
  const stragglers = options.resetStragglers ? new Set<string>() : play.leftBehind;
  const hold = play.waitsForReady(mediaId) && play.notReadyUsers(mediaId, stragglers).length > 0;
  return {
    // A scheduled start (`startAt`, server ms ahead) applies to a play that happens now; a
    // held play starts when the wait ends, with no lead.
    patch: { ...patch, playing: !hold, updatedAt: hold ? now : Math.max(now, options.startAt ?? now) },
    cause,
    by,
    wait: hold ? 'open' : 'close',
    ...(options.resetStragglers ? { resetStragglers: true } : {}),
  };
}

export function requestPlay(
  core: RoomCore,
  patch: Partial<Omit<PlaybackState, 'version'>>,
  cause: PlaybackCause,
  by: string | null,
  turn?: Turn,
  startAt?: number,
): Promise<PlaybackView> {
  return PLAYBACK.of(core).change(playChange(core, patch, cause, by, startAt !== undefined ? { startAt } : {}), turn);
}

/**
 * The room stopped waiting for everyone (the option was turned off): a held play starts. It
 * follows a committed settings change, so a failure here must not fail that command; the
 * wait's own timer still ends the hold.
 */
export async function releaseHeldPlay(core: RoomCore, by: string): Promise<void> {
  try {
    await requestPlay(core, {}, 'ready', by);
  } catch (err) {
    if (isFencedError(err)) throw err;
    core.logger.warn({ err: messageOf(err) }, 'could not release the held play; the wait ends at its deadline');
  }
}

/**
 * Re-checks readiness after a player report or presence change: plays a held play once
 * nobody is missing, and pauses a playing room for a member who started buffering. Never
 * fails the command that caused it (a join, a kick, a report): if the change cannot be
 * saved the room stays as it was and the next report or the wait's timer decides again.
 */
export async function reconsiderReadiness(core: RoomCore, reporter: string | null): Promise<void> {
  const room = core.room;
  if (!room || room.status === 'rejected') return;
  const now = core.now();
  const play = PLAYBACK.of(core);
  let change: PlaybackChange | undefined;
  if (play.holding) {
    const waiting = play.notReadyUsers();
    if (waiting.length > 0) {
      play.refreshWait(waiting);
      return;
    }
    change = { patch: { playing: true, updatedAt: now }, cause: 'ready', by: null, wait: 'close' };
  } else if (reporter !== null && core.playback.playing && play.waitsForReady()) {
    const report = core.presence.player(reporter);
    if (report?.state === 'buffering' && report.mediaId === core.playback.mediaId && !play.leftBehind.has(reporter)) {
      change = { patch: { playing: false, position: positionAt(core.playback, now), updatedAt: now }, cause: 'buffering', by: reporter, wait: 'open' };
    }
  }
  if (!change) return;
  try {
    await play.change(change);
  } catch (err) {
    if (isFencedError(err)) throw err;
    core.logger.warn({ err: messageOf(err), cause: change.cause }, 'could not change playback for readiness; it stays as it was');
  }
}

/** The wait ran out: play without the stragglers, and stop waiting for them on this media. */
export async function onReadyTimeout(core: RoomCore): Promise<void> {
  const play = PLAYBACK.of(core);
  if (!play.holding) return;
  const stragglers = play.notReadyUsers();
  try {
    await play.change({ patch: { playing: true, updatedAt: core.now() }, cause: 'ready.timeout', by: null, wait: 'close', leftBehind: stragglers });
  } catch (err) {
    if (isFencedError(err)) throw err;
    // Still waiting, past its deadline: try again shortly rather than hold the room forever.
    core.logger.warn({ err: messageOf(err) }, 'could not end the ready wait; trying again');
    core.timers.schedule('ready', PERSIST_RETRY_FIRST_MS);
  }
}
