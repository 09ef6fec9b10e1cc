/**
 * The polls part (docs/2026-11-26-votes-and-polls.md): the open poll and the kept closed ones,
 * loaded with the room; their commands, their timer, their place in the views, and what a
 * closed account leaves in them (its votes keep counting under new ids, its polls are by
 * "Former member").
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { FORMER_MEMBER } from '../../../contracts/room/former-member.js';
import type { Forgotten, RoomCore } from '../core.js';
import { roomPart } from '../part.js';
import type pg from 'pg';
import { closePollCommand, onPollTimer, openPoll, schedulePollTimer, votePoll } from './poll-handlers.js';
import { anonymisePollAuthor, anonymisePollVotes, loadPolls } from './poll-store.js';
import { POLLS, pollView, type StoredPoll } from './polls.js';

async function forgetting(core: RoomCore, client: pg.PoolClient, userId: string): Promise<Forgotten> {
  const votes = await anonymisePollVotes(client, core.id, userId);
  const authored = await anonymisePollAuthor(client, core.id, userId);
  return {
    counts: { pollVotes: votes.length, polls: authored },
    apply: () => {
      const held = POLLS.of(core);
      const changed = new Set<StoredPoll>(held.all().filter((poll) => poll.createdBy === userId));
      for (const poll of changed) poll.createdBy = FORMER_MEMBER.userId;
      for (const { pollId, voterId } of votes) {
        const poll = held.get(pollId);
        const choice = poll?.votes.get(userId);
        if (!poll || choice === undefined) continue;
        poll.votes.delete(userId);
        poll.votes.set(voterId, choice);
        changed.add(poll);
      }
      for (const poll of changed) core.publish({ type: 'poll', poll: pollView(poll) });
    },
  };
}

export const pollsPart = roomPart({
  name: 'polls',
  state: [POLLS],
  handlers: {
    'poll.open': openPoll,
    'poll.vote': votePoll,
    'poll.close': closePollCommand,
  },
  timers: { poll: onPollTimer },
  load: async (core, client) => POLLS.of(core).restore(await loadPolls(client, core.id, ROOM_LIMITS.pollsKept + 1)),
  // An open poll's timer runs on in the new activation.
  activated: schedulePollTimer,
  creating: (core) => ({ apply: () => POLLS.of(core).clear() }),
  deleted: (core) => POLLS.of(core).clear(),
  view: (core, access) => ({ polls: POLLS.of(core).views(access.userId) }),
  forgetting,
});
