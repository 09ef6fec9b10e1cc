/**
 * `playback.voteSkip`: a member votes to skip the current item (or takes the vote back). When
 * the votes reach the room's share of present voters, the room goes on as at the item's end,
 * by its queue mode, except that a mode which would keep the item (stop, repeat this item)
 * plays the next one instead: the room voted it away. Nothing after it: the room pauses.
 */
import { AppError } from '../../../errors/app-error.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { MediaItem, QueueMode } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { indexOfMedia } from '../media/playlist.js';
import type { PlaylistEntry } from '../store/room-store.js';
import { switchTo } from './playback-handlers.js';
import { spendQueueVotes } from './queue-vote-handlers.js';
import { QUEUE_START_LEAD_MS, followingItem } from './queue.js';
import { presentVoters, voteSkipTally } from './vote-skip.js';

/** What a skip plays: the queue mode's choice, but never the skipped item again. */
export function skipTarget(
  mode: QueueMode,
  playlist: readonly PlaylistEntry[],
  currentId: string,
  votes: (mediaId: string) => number = () => 0,
): MediaItem | null {
  if (mode === 'stop' || mode === 'repeat_one') return playlist[indexOfMedia(playlist, currentId) + 1]?.item ?? null;
  const following = followingItem(mode, playlist, currentId, Math.random, votes);
  return following?.id === currentId ? null : following;
}

export async function voteSkip(core: RoomCore, command: RoomCommandOf<'playback.voteSkip'>, turn: Turn): Promise<RoomResults['playback.voteSkip']> {
  const { access } = turn;
  core.require(access, 'vote', 'voting to skip');
  const percent = core.current.options.voteSkipPercent;
  if (percent === 0) throw new AppError('conflict', 'vote-skip is off in this room (voteSkipPercent is 0)');
  const mediaId = core.playback.mediaId;
  if (command.mediaId !== mediaId) {
    throw new AppError('conflict', `mediaId ${command.mediaId} is not playing: the current media is ${mediaId ?? 'none'}`);
  }
  if (!presentVoters(core).has(access.userId)) {
    throw new AppError('conflict', 'votes to skip count the members present: connect to the room (presence.enter) first');
  }
  core.skipVotes.set(mediaId, access.userId, command.vote);
  const tally = voteSkipTally(core);
  if (!tally) throw new AppError('conflict', 'vote-skip is off in this room (voteSkipPercent is 0)');
  core.publish({ type: 'vote.skip', voteSkip: tally });
  if (tally.votes < tally.needed) return { voteSkip: tally, skipped: false, playback: core.play.view() };

  core.skipVotes.clear();
  const target = skipTarget(core.current.options.queueMode, core.playlist, mediaId, (id) => core.queueVotes.count(id));
  if (target) {
    // Scheduled ahead as a queue step is: everyone loads the new item before it starts.
    const startAt = core.playback.playing ? turn.now + QUEUE_START_LEAD_MS : undefined;
    const playback = await switchTo(core, target, 'playback.voteSkip', turn, startAt);
    await spendQueueVotes(core, target);
    return { voteSkip: tally, skipped: true, playback };
  }
  const patch = { playing: false, position: core.play.positionNow(), updatedAt: turn.now };
  const playback = await core.play.change({ patch, cause: 'playback.voteSkip', by: access.userId, wait: 'close' }, turn);
  return { voteSkip: tally, skipped: true, playback };
}
