/**
 * The end of an item: players report it, the room decides. Any active member may report
 * (guests too: they watch, and a room whose host closed the tab should still go on), because
 * the report only asks the room to check its own clock: the room goes on, by its queue mode,
 * when the item is current and playing and the room's position has reached the item's length
 * (media-length.ts), within END_TOLERANCE_SECONDS. Reports of media no longer current (every
 * other viewer's copy of an end already handled) change nothing, so many reports advance once.
 * docs/2026-11-26-queue-modes.md has the reasoning, the attacks considered and the limits.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import type { MediaItem, PlaybackView } from '../../../contracts/room/model.js';
import { END_TOLERANCE_SECONDS, QUEUE_START_LEAD_MS, followingItem, skipTarget } from './queue.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { switchTo } from './playback-handlers.js';
import { spendQueueVotes } from './queue-vote-handlers.js';
import { folderStep, followingAfterFolder } from './queue-folder.js';
import { FOLDER_PLAY, folderItemIds, saveFolderPlay } from './folder-play.js';
import { MEDIA_LENGTH, usableDuration } from './media-length.js';
import { PLAYBACK } from './room-playback.js';
import { QUEUE_VOTES } from './queue-votes.js';

const seconds = (value: number) => `${Math.round(value * 10) / 10} s`;

/**
 * The length the end is checked against. A member with control_playback could seek to the
 * end anyway, so their own report's duration counts as given; anyone else's end is checked
 * against the longest duration any player reported, which a lie cannot shorten.
 */
function lengthFor(core: RoomCore, command: RoomCommandOf<'playback.ended'>, turn: Turn): number | undefined {
  const known = MEDIA_LENGTH.of(core).of(command.mediaId);
  if (!turn.access.permissions.has('control_playback')) return known;
  return usableDuration(command.duration) ?? known;
}

/** Refuses an end the room's clock has not reached (a false or far-drifted report). */
function checkReachedEnd(core: RoomCore, item: MediaItem, length: number | undefined): void {
  if (length === undefined) {
    throw new AppError('conflict', `the room does not know the length of media ${item.id} yet: report it with duration`);
  }
  const position = PLAYBACK.of(core).positionNow();
  if (position < length - END_TOLERANCE_SECONDS) {
    throw new AppError('conflict', `media ${item.id} is at ${seconds(position)} of ${seconds(length)} in the room: it goes on when the room reaches the end`);
  }
}

export async function ended(core: RoomCore, command: RoomCommandOf<'playback.ended'>, turn: Turn): Promise<RoomResults['playback.ended']> {
  const playback = core.playback;
  const play = PLAYBACK.of(core);
  MEDIA_LENGTH.of(core).record(command.mediaId, playback.mediaId, command.duration);
  // Already handled (the room moved on, repeated or stopped), or paused: nothing to do.
  if (command.mediaId !== playback.mediaId || !playback.playing) return { playback: play.view() };
  const item = core.playlist.find((e) => e.item.id === command.mediaId)?.item;
  if (!item) return { playback: play.view() };
  const length = lengthFor(core, command, turn);
  if (item.live) {
    // A stream has no length: its end is the word of someone who may control playback.
    core.require(turn.access, 'control_playback', 'ending a livestream');
  } else checkReachedEnd(core, item, length);

  const following = await queueFollowing(core, item.id);
  if (following) {
    const playback = await switchTo(core, following, 'playback.ended', turn, turn.now + QUEUE_START_LEAD_MS);
    await spendQueueVotes(core, following);
    return { playback };
  }
  // Stop at the end (once: later reports find the room paused).
  const position = length === undefined ? play.positionNow() : Math.min(play.positionNow(), length);
  const patch = { playing: false, position, updatedAt: turn.now };
  return { playback: await play.change({ patch, cause: 'playback.ended', by: turn.access.userId, wait: 'close' }, turn) };
}

/**
 * Skips the current item `mediaId` because the room voted it away (vote-skip/): the room goes
 * on as at the item's end, by its queue mode, scheduled ahead as a queue step is so everyone
 * loads the new item first (skipTarget never plays the skipped item again). Nothing after it:
 * the room pauses.
 */
export async function skipCurrent(core: RoomCore, mediaId: string, turn: Turn): Promise<PlaybackView> {
  const votes = QUEUE_VOTES.of(core);
  const target = skipTarget(core.current.options.queueMode, core.playlist, mediaId, (id) => votes.count(id));
  const play = PLAYBACK.of(core);
  if (target) {
    const startAt = core.playback.playing ? turn.now + QUEUE_START_LEAD_MS : undefined;
    const playback = await switchTo(core, target, 'playback.voteSkip', turn, startAt);
    await spendQueueVotes(core, target);
    return playback;
  }
  const patch = { playing: false, position: play.positionNow(), updatedAt: turn.now };
  return play.change({ patch, cause: 'playback.voteSkip', by: turn.access.userId, wait: 'close' }, turn);
}

/**
 * What plays after `currentId`: within the folder being played while it lasts, then by the
 * queue mode. The folder play's next state is stored before the switch (see
 * folder-play-handlers.ts for why that order is safe).
 */
async function queueFollowing(core: RoomCore, currentId: string): Promise<MediaItem | null> {
  const mode = core.current.options.queueMode;
  const book = QUEUE_VOTES.of(core);
  const votes = (id: string) => book.count(id);
  const folderPlay = FOLDER_PLAY.of(core);
  const state = folderPlay.state;
  const step = folderStep(state, currentId, state ? folderItemIds(core, state.folderId) : []);
  if (step.kind === 'none') return followingItem(mode, core.playlist, currentId, Math.random, votes);
  const next = step.kind === 'next' ? step.state : null;
  await core.durable('advance the folder play', (client) => saveFolderPlay(client, core.id, next));
  folderPlay.state = next;
  if (step.kind === 'next') return core.playlist.find((e) => e.item.id === step.mediaId)!.item;
  return followingAfterFolder(mode, core.playlist, currentId, step.anchor, Math.random, votes);
}
