/**
 * `member.forget`: what a room still holds of an account being closed, once the account has
 * left it (docs/2026-11-26-profiles-and-accounts.md, the close-account table). Sent by the
 * service only (gateways/rooms/forget-in-rooms.ts), through the actor because polls, up-votes,
 * skip votes and bans live in its memory and are written with its fence: a write behind its
 * back would be overwritten by its next one.
 *
 * - Poll votes and up-votes keep counting, each under a new random id (a tally does not change
 *   because a voter left the service); the polls the account opened are by "Former member".
 * - A skip vote (memory only) is dropped; it counted only while its voter was present anyway.
 * - A ban keeps its id and loses the name.
 * - A room library the account connected is removed, since its secret is that person's
 *   credential, and the room is told in its chat.
 *
 * Repeating it changes nothing more, so a close that failed half way can be repeated.
 */
import { AppError } from '../../../errors/app-error.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import { FORMER_MEMBER } from '../../../contracts/room/former-member.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { pollView } from '../polls/polls.js';
import { anonymiseBan, anonymisePollAuthor, anonymisePollVotes, anonymiseQueueVotes, removeLibrariesConnectedBy } from './forget-store.js';

/** Who the room's own notices in chat are by. No account has this id. */
export const ROOM_NOTICE = Object.freeze({ userId: 'service:room', name: 'Room' } as const);

export async function forgetMember(core: RoomCore, command: RoomCommandOf<'member.forget'>, turn: Turn): Promise<RoomResults['member.forget']> {
  if (!turn.access.service) throw new AppError('forbidden', 'a closed account is forgotten by the service, not by a member');
  const { userId } = command;
  const member = core.members.get(userId);
  if (core.current.ownerId === userId || (member && member.status !== 'banned')) {
    throw new AppError('conflict', `${userId} is still in this room: a closing account leaves its rooms (or hands them over) first`);
  }
  const banned = member?.status === 'banned' && member.name !== FORMER_MEMBER.name;
  let pollVotes: Array<{ pollId: string; voterId: string }> = [];
  let queueVotes: Array<{ mediaId: string; voterId: string }> = [];
  let libraries: Array<{ id: string; name: string }> = [];
  // The result is what the command log keeps for a retry, so the changes travel beside it.
  const result = await core.commit(turn, 'forget a closed account', async (client) => {
    pollVotes = await anonymisePollVotes(client, core.id, userId);
    const polls = await anonymisePollAuthor(client, core.id, userId);
    queueVotes = await anonymiseQueueVotes(client, core.id, userId);
    if (banned) await anonymiseBan(client, core.id, userId);
    libraries = await removeLibrariesConnectedBy(client, core.id, userId);
    return { pollVotes: pollVotes.length, polls, queueVotes: queueVotes.length, bans: banned ? 1 : 0, libraries: libraries.length };
  });

  const polls = new Set(core.polls.all().filter((poll) => poll.createdBy === userId));
  for (const poll of polls) poll.createdBy = FORMER_MEMBER.userId;
  for (const { pollId, voterId } of pollVotes) {
    const poll = core.polls.get(pollId);
    const choice = poll?.votes.get(userId);
    if (!poll || choice === undefined) continue;
    poll.votes.delete(userId);
    poll.votes.set(voterId, choice);
    polls.add(poll);
  }
  for (const poll of polls) core.publish({ type: 'poll', poll: pollView(poll) });

  const items = new Set<string>();
  for (const { mediaId, voterId } of queueVotes) {
    core.queueVotes.set(mediaId, userId, false);
    core.queueVotes.set(mediaId, voterId, true);
    items.add(mediaId);
  }
  for (const mediaId of items) core.publish({ type: 'queue.votes', queueVotes: core.queueVotes.view(mediaId) });
  core.skipVotes.forget(userId);
  if (member && banned) core.members.set(userId, { ...member, name: FORMER_MEMBER.name });

  for (const library of libraries) await announceRemovedLibrary(core, userId, library);
  return result;
}

/** A line in the room's chat, so its members learn why the library's items stopped playing. */
async function announceRemovedLibrary(core: RoomCore, userId: string, library: { id: string; name: string }): Promise<void> {
  const text = `The room library "${library.name}" was removed: the account that connected it was closed, and its credentials went with it.`;
  const stored = await core.fencedWrite('tell the room a library was removed', (fence) =>
    core.writers.chat.write({
      fence,
      roomId: core.id,
      message: { ...ROOM_NOTICE, text, commandId: `forget:${userId}:${library.id}`, replyTo: null, mentions: [], createdAt: core.now() },
    }),
  );
  if (stored.created) core.publish({ type: 'chat.message', message: stored.message });
}
