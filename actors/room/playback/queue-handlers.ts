/**
 * The end of an item: players report it, the room decides. Any active member may report
 * (guests too: they watch, and a room whose host closed the tab should still go on), because
 * the report only asks the room to check its own clock: the room goes on, by its queue mode,
 * when the item is current and playing and the room's position has reached the item's length
 * (media-length.ts), within END_TOLERANCE_SECONDS. Reports of media no longer current (every
 * other viewer's copy of an end already handled) change nothing, so many reports advance once.
 * docs/2026-11-26-queue-modes.md has the reasoning, the attacks considered and the limits.
 */
import { AppError } from '../../../errors/app-error.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import { usableDuration } from './media-length.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import { END_TOLERANCE_SECONDS, QUEUE_START_LEAD_MS, followingItem } from './queue.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { switchTo } from './playback-handlers.js';
import { spendQueueVotes } from './queue-vote-handlers.js';
import { folderStep, followingAfterFolder } from './queue-folder.js';
import { folderItemIds } from '../media/playlist.js';
import { rowsOf } from '../media/playlist-state.js';
import { saveFolderPlay } from '../store/room-store.js';

const seconds = (value: number) => `${Math.round(value * 10) / 10} s`;

/**
 * The length the end is checked against. A member with control_playback could seek to the
 * end anyway, so their own report's duration counts as given; anyone else's end is checked
 * against the longest duration any player reported, which a lie cannot shorten.
 */
function lengthFor(core: RoomCore, command: RoomCommandOf<'playback.ended'>, turn: Turn): number | undefined {
  const known = core.mediaLength.of(command.mediaId);
  if (!turn.access.permissions.has('control_playback')) return known;
  return usableDuration(command.duration) ?? known;
}

/** Refuses an end the room's clock has not reached (a false or far-drifted report). */
function checkReachedEnd(core: RoomCore, item: MediaItem, length: number | undefined): void {
  if (length === undefined) {
    throw new AppError('conflict', `the room does not know the length of media ${item.id} yet: report it with duration`);
  }
  const position = core.play.positionNow();
  if (position < length - END_TOLERANCE_SECONDS) {
    throw new AppError('conflict', `media ${item.id} is at ${seconds(position)} of ${seconds(length)} in the room: it goes on when the room reaches the end`);
  }
}

export async function ended(core: RoomCore, command: RoomCommandOf<'playback.ended'>, turn: Turn): Promise<RoomResults['playback.ended']> {
  const playback = core.playback;
  core.mediaLength.record(command.mediaId, playback.mediaId, command.duration);
  // Already handled (the room moved on, repeated or stopped), or paused: nothing to do.
  if (command.mediaId !== playback.mediaId || !playback.playing) return { playback: core.play.view() };
  const item = core.playlist.find((e) => e.item.id === command.mediaId)?.item;
  if (!item) return { playback: core.play.view() };
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
  const position = length === undefined ? core.play.positionNow() : Math.min(core.play.positionNow(), length);
  const patch = { playing: false, position, updatedAt: turn.now };
  return { playback: await core.play.change({ patch, cause: 'playback.ended', by: turn.access.userId, wait: 'close' }, turn) };
}

/**
 * What plays after `currentId`: within the folder being played while it lasts, then by the
 * queue mode. The folder play's next state is stored before the switch (see folder-handlers.ts
 * playPlaylistFolder for why that order is safe).
 */
async function queueFollowing(core: RoomCore, currentId: string): Promise<MediaItem | null> {
  const mode = core.current.options.queueMode;
  const votes = (id: string) => core.queueVotes.count(id);
  const state = core.folderPlay;
  const step = folderStep(state, currentId, state ? folderItemIds(rowsOf(core), state.folderId) : []);
  if (step.kind === 'none') return followingItem(mode, core.playlist, currentId, Math.random, votes);
  const next = step.kind === 'next' ? step.state : null;
  await core.durable('advance the folder play', (client) => saveFolderPlay(client, core.id, next));
  core.folderPlay = next;
  if (step.kind === 'next') return core.playlist.find((e) => e.item.id === step.mediaId)!.item;
  return followingAfterFolder(mode, core.playlist, currentId, step.anchor, Math.random, votes);
}
