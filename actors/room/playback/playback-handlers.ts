/**
 * Synchronized playback. Commands apply in arrival order (the actor is turn-based), so two
 * members pressing at once resolve to the later one, deterministically; a command carrying
 * `expectMediaId` / `expectVersion` is refused with `conflict` when the room moved on since
 * the sender last looked, and one carrying the send time is placed where the sender meant.
 * Choosing what plays (set current, next, previous) is here too.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import type { PlaybackCause } from '../../../contracts/room/events.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MediaItem, PlaybackView } from '../../../contracts/room/model.js';
import { indexOfMedia } from '../records.js';
import { startPosition } from '../media-check.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { transitMs } from './playback.js';
import { checkSeekAllowed, reachablePosition } from './seek-rules.js';
import { playChange, requestPlay } from './ready-wait.js';
import { PLAYBACK } from './room-playback.js';
import { FOLDER_PLAY, saveFolderPlay } from './folder-play.js';

export interface PlaybackGuards {
  expectMediaId?: string | null | undefined;
  expectVersion?: number | undefined;
}

export function checkPlaybackGuards(core: RoomCore, guards: PlaybackGuards): void {
  const { mediaId, version } = core.playback;
  if (guards.expectVersion !== undefined && guards.expectVersion !== version) {
    throw new AppError('conflict', `playback changed: it is at version ${version}, the command expected ${guards.expectVersion}`);
  }
  if (guards.expectMediaId !== undefined && guards.expectMediaId !== mediaId) {
    throw new AppError('conflict', `playback moved on: the current media is ${mediaId ?? 'none'}, the command expected ${guards.expectMediaId ?? 'none'}`);
  }
}

function currentItem(core: RoomCore): MediaItem {
  const mediaId = core.playback.mediaId;
  const entry = core.playlist.find((e) => e.item.id === mediaId);
  if (!entry) throw new AppError('conflict', 'nothing is selected to play: choose the current media first');
  return entry.item;
}

/** Seconds of playback that passed while the command travelled (0 when paused or live). */
function compensation(core: RoomCore, turn: Turn, playing: boolean, item: MediaItem): number {
  if (!playing || item.live) return 0;
  return (transitMs(turn.meta.sentAt, turn.meta.receivedAt) / 1000) * core.playback.rate;
}

function clampPosition(seconds: number): number {
  return Math.min(ROOM_LIMITS.positionMaxSeconds, Math.max(0, seconds));
}

function prepare(core: RoomCore, command: PlaybackGuards, turn: Turn): MediaItem {
  core.require(turn.access, 'control_playback', 'controlling playback');
  checkPlaybackGuards(core, command);
  return currentItem(core);
}

export async function play(core: RoomCore, command: RoomCommandOf<'playback.play'>, turn: Turn): Promise<RoomResults['playback.play']> {
  const item = prepare(core, command, turn);
  // Already playing from where it is: nothing changes, so nothing is published.
  const asked = reachablePosition(item, command.position);
  if (core.playback.playing && asked === undefined) return { playback: PLAYBACK.of(core).view() };
  const from = asked ?? PLAYBACK.of(core).positionNow();
  // A scheduled start replaces transit compensation: everyone starts from `from` at the instant.
  if (command.startInMs !== undefined) {
    const position = clampPosition(from);
    return { playback: await requestPlay(core, { position }, 'playback.play', turn.access.userId, turn, turn.now + command.startInMs) };
  }
  const position = clampPosition(from + compensation(core, turn, true, item));
  return { playback: await requestPlay(core, { position }, 'playback.play', turn.access.userId, turn) };
}

export async function pause(core: RoomCore, command: RoomCommandOf<'playback.pause'>, turn: Turn): Promise<RoomResults['playback.pause']> {
  const item = prepare(core, command, turn);
  const position = reachablePosition(item, command.position) ?? PLAYBACK.of(core).positionNow();
  const unchanged = !core.playback.playing && !PLAYBACK.of(core).holding && position === core.playback.position;
  if (unchanged) return { playback: PLAYBACK.of(core).view() };
  const patch = { playing: false, position, updatedAt: turn.now };
  return { playback: await PLAYBACK.of(core).change({ patch, cause: 'playback.pause', by: turn.access.userId, wait: 'close' }, turn) };
}

export async function seek(core: RoomCore, command: RoomCommandOf<'playback.seek'>, turn: Turn): Promise<RoomResults['playback.seek']> {
  const item = prepare(core, command, turn);
  if (item.live) throw new AppError('conflict', 'a livestream cannot be seeked');
  checkSeekAllowed(item, command.position);
  // While playing, a scheduled seek resumes from exactly `position` at the instant (the lead
  // replaces transit compensation); a paused room has nothing to start, so no lead applies.
  if (command.startInMs !== undefined && core.playback.playing) {
    const patch = { position: clampPosition(command.position), updatedAt: turn.now + command.startInMs };
    return { playback: await PLAYBACK.of(core).change({ patch, cause: 'playback.seek', by: turn.access.userId }, turn) };
  }
  const position = clampPosition(command.position + compensation(core, turn, core.playback.playing, item));
  return { playback: await PLAYBACK.of(core).change({ patch: { position, updatedAt: turn.now }, cause: 'playback.seek', by: turn.access.userId }, turn) };
}

export async function setRate(core: RoomCore, command: RoomCommandOf<'playback.rate'>, turn: Turn): Promise<RoomResults['playback.rate']> {
  const item = prepare(core, command, turn);
  if (item.live) throw new AppError('conflict', 'a livestream plays at its own rate');
  if (command.rate === core.playback.rate) return { playback: PLAYBACK.of(core).view() };
  // Re-based at the moment of the change, so the time already played keeps its old rate. A
  // start still ahead keeps its instant: nothing has played yet, the new rate applies from it.
  const updatedAt = core.playback.playing ? Math.max(turn.now, core.playback.updatedAt) : turn.now;
  const patch = { position: PLAYBACK.of(core).positionNow(), rate: command.rate, updatedAt };
  return { playback: await PLAYBACK.of(core).change({ patch, cause: 'playback.rate', by: turn.access.userId }, turn) };
}

/**
 * Switches to `item` from its start. A room that was playing (or about to) keeps playing,
 * waiting for everyone to load the new media when the room asks for that; `startAt` schedules
 * that start ahead in server time (the queue's lead for loading the item).
 */
export async function switchTo(core: RoomCore, item: MediaItem, cause: PlaybackCause, turn: Turn, startAt?: number): Promise<PlaybackView> {
  const by = turn.access.userId;
  const keepPlaying = core.playback.playing || PLAYBACK.of(core).holding;
  // Everyone must load the new media, stragglers of the old one included.
  const patch = { mediaId: item.id, position: startPosition(core.deps.media, item), updatedAt: core.now() };
  const change = keepPlaying
    ? playChange(core, patch, cause, by, { resetStragglers: true, ...(startAt !== undefined ? { startAt } : {}) })
    : { patch: { ...patch, playing: false }, cause, by, wait: 'close' as const, resetStragglers: true };
  return PLAYBACK.of(core).change(change, turn);
}

async function step(core: RoomCore, command: PlaybackGuards, turn: Turn, direction: 1 | -1): Promise<PlaybackView> {
  core.require(turn.access, 'set_current_media', 'skipping media');
  checkPlaybackGuards(core, command);
  const index = indexOfMedia(core.playlist, core.playback.mediaId);
  // With nothing selected, "next" starts the list from the top.
  const target = index < 0 ? (direction === 1 ? 0 : -1) : index + direction;
  const entry = core.playlist[target];
  if (!entry) throw new AppError('conflict', direction === 1 ? 'there is no next media in the playlist' : 'there is no previous media in the playlist');
  return switchTo(core, entry.item, direction === 1 ? 'playback.next' : 'playback.previous', turn);
}

export async function next(core: RoomCore, command: RoomCommandOf<'playback.next'>, turn: Turn): Promise<RoomResults['playback.next']> {
  return { playback: await step(core, command, turn, 1) };
}

export async function previous(core: RoomCore, command: RoomCommandOf<'playback.previous'>, turn: Turn): Promise<RoomResults['playback.previous']> {
  return { playback: await step(core, command, turn, -1) };
}

export async function setCurrentMedia(
  core: RoomCore,
  command: RoomCommandOf<'playlist.setCurrent'>,
  turn: Turn,
): Promise<RoomResults['playlist.setCurrent']> {
  core.require(turn.access, 'set_current_media', 'choosing what plays');
  checkPlaybackGuards(core, command);
  const chosen = core.playlist.find((e) => e.item.id === command.mediaId)?.item;
  if (!chosen) throw new AppError('not_found', `media ${command.mediaId} is not in this room's playlist`);
  // An item chosen by hand ends a folder play, even the very item the folder play is on: the
  // room's queue mode goes on from it (docs/2026-11-26-playlist-folders.md).
  const folderPlay = FOLDER_PLAY.of(core);
  if (folderPlay.state) {
    await core.durable('end the folder play', (client) => saveFolderPlay(client, core.id, null));
    folderPlay.state = null;
  }
  // Choosing media cues it up paused at the start, the way a host picks the next video and
  // then presses play once everyone has it.
  const playback = await PLAYBACK.of(core).change(
    {
      patch: { mediaId: command.mediaId, playing: false, position: startPosition(core.deps.media, chosen), updatedAt: turn.now },
      cause: 'playlist.setCurrent',
      by: turn.access.userId,
      wait: 'close',
      resetStragglers: true,
    },
    turn,
  );
  return { playback };
}
