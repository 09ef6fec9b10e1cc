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
 *
 * The ban and the libraries are this part's; every other part forgets its own records in the
 * same transaction (its `forgetting` hook: polls, up-votes, skip votes) and counts them.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import { FORMER_MEMBER } from '../../../contracts/room/former-member.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { ForgetCounts, Forgotten, RoomCore, Turn } from '../core.js';
import { CHAT_WRITER } from '../chat/chat-writer.js';
import { anonymiseBan, removeLibrariesConnectedBy } from './forget-store.js';

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
  let forgotten: Forgotten[] = [];
  let libraries: Array<{ id: string; name: string }> = [];
  // The result is what the command log keeps for a retry, so the changes travel beside it.
  const result = await core.commit(turn, 'forget a closed account', async (client) => {
    forgotten = await core.forgetting(client, userId);
    if (banned) await anonymiseBan(client, core.id, userId);
    libraries = await removeLibrariesConnectedBy(client, core.id, userId);
    const counts: ForgetCounts = { pollVotes: 0, polls: 0, queueVotes: 0, bans: banned ? 1 : 0, libraries: libraries.length };
    for (const { counts: theirs = {} } of forgotten) {
      for (const key of Object.keys(theirs) as Array<keyof ForgetCounts>) counts[key] += theirs[key] ?? 0;
    }
    return counts;
  });

  for (const done of forgotten) await done.apply?.();
  if (member && banned) core.members.set(userId, { ...member, name: FORMER_MEMBER.name });
  for (const library of libraries) await announceRemovedLibrary(core, userId, library);
  return result;
}

/** A line in the room's chat, so its members learn why the library's items stopped playing. */
async function announceRemovedLibrary(core: RoomCore, userId: string, library: { id: string; name: string }): Promise<void> {
  const text = `The room library "${library.name}" was removed: the account that connected it was closed, and its credentials went with it.`;
  const stored = await core.fencedWrite('tell the room a library was removed', (fence) =>
    CHAT_WRITER.of(core).write({
      fence,
      roomId: core.id,
      message: { ...ROOM_NOTICE, text, commandId: `forget:${userId}:${library.id}`, replyTo: null, mentions: [], createdAt: core.now() },
    }),
  );
  if (stored.created) core.publish({ type: 'chat.message', message: stored.message });
}
