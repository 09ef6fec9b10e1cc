/**
 * `playlist.vote`: an up-vote for an item in the voting queue mode (queue-votes.ts), and the
 * clearing of an item's votes when the queue starts it.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { MediaItem } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { QUEUE_VOTES, clearQueueVotes, saveQueueVote } from './queue-votes.js';

export async function voteForItem(core: RoomCore, command: RoomCommandOf<'playlist.vote'>, turn: Turn): Promise<RoomResults['playlist.vote']> {
  const { access } = turn;
  core.require(access, 'vote', 'up-voting playlist items');
  core.require(access, 'view_media_resources', 'up-voting playlist items');
  const mode = core.current.options.queueMode;
  if (mode !== 'vote') throw new AppError('conflict', `up-votes count only in the voting queue mode (queueMode is ${mode})`);
  if (!core.playlist.some((entry) => entry.item.id === command.mediaId)) {
    throw new AppError('not_found', `media ${command.mediaId} is not in this room's playlist`);
  }
  const book = QUEUE_VOTES.of(core);
  if (book.has(command.mediaId, access.userId) !== command.vote) {
    await core.commit(turn, 'record the up-vote', (client) => saveQueueVote(client, core.id, command.mediaId, access.userId, command.vote));
    book.set(command.mediaId, access.userId, command.vote);
    core.publish({ type: 'queue.votes', queueVotes: book.view(command.mediaId) });
  }
  return { queueVotes: book.view(command.mediaId) };
}

/** The queue started `item` in the voting mode: its votes are spent. */
export async function spendQueueVotes(core: RoomCore, item: MediaItem): Promise<void> {
  const book = QUEUE_VOTES.of(core);
  if (core.current.options.queueMode !== 'vote' || book.count(item.id) === 0) return;
  await core.durable('clear the up-votes', (client) => clearQueueVotes(client, core.id, item.id));
  book.clearItem(item.id);
  core.publish({ type: 'queue.votes', queueVotes: book.view(item.id) });
}
