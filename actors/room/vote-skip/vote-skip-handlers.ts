/**
 * `playback.voteSkip`: a member votes to skip the current item (or takes the vote back). When
 * the votes reach the room's share of present voters, the room goes on as at the item's end,
 * by its queue mode, except that a mode which would keep the item (stop, repeat this item)
 * plays the next one instead: the room voted it away. Nothing after it: the room pauses
 * (playback/queue-handlers.ts `skipCurrent`).
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { skipCurrent } from '../playback/queue-handlers.js';
import { PLAYBACK } from '../playback/room-playback.js';
import { SKIP_VOTES, presentVoters, voteSkipTally } from './vote-skip.js';

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
  const votes = SKIP_VOTES.of(core);
  votes.set(mediaId, access.userId, command.vote);
  const tally = voteSkipTally(core);
  if (!tally) throw new AppError('conflict', 'vote-skip is off in this room (voteSkipPercent is 0)');
  core.publish({ type: 'vote.skip', voteSkip: tally });
  if (tally.votes < tally.needed) return { voteSkip: tally, skipped: false, playback: PLAYBACK.of(core).view() };

  votes.clear();
  return { voteSkip: tally, skipped: true, playback: await skipCurrent(core, mediaId, turn) };
}
