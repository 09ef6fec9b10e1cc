/**
 * Votes to skip the current item (docs/2026-11-26-votes-and-polls.md); the votes themselves are
 * held by skip-votes.ts. Who counts is decided when asked, from who is present now and holds `vote`: the threshold
 * follows people arriving and leaving, and a voter who left no longer counts.
 */
import type { MemberRoomView, VoteSkip } from '../../../contracts/room/model.js';
import { StateSlice, type RoomCore } from '../core.js';
import { SkipVotes } from './skip-votes.js';

/** The votes on the current item, in memory only. */
export const SKIP_VOTES = new StateSlice('skip votes', () => new SkipVotes());

/** Present active members holding `vote` (the owner always does). */
export function presentVoters(core: RoomCore): Set<string> {
  const eligible = new Set<string>();
  for (const userId of core.presence.userIds()) {
    const member = core.members.get(userId);
    if (member?.status !== 'active') continue;
    // The room's own rule, so a member's own grants and denials count as everywhere else.
    if (core.access({ userId, guest: member.guest }).permissions.has('vote')) eligible.add(userId);
  }
  return eligible;
}

/** Votes needed out of `eligible` present voters at `percent`: at least one, never more than there are. */
export function votesNeeded(eligible: number, percent: number): number {
  return Math.max(1, Math.ceil((eligible * percent) / 100));
}

/** The votes on the current item, or null when vote-skip is off or nothing is current. */
export function voteSkipTally(core: RoomCore): VoteSkip | null {
  const percent = core.current.options.voteSkipPercent;
  const mediaId = core.playback.mediaId;
  if (percent === 0 || mediaId === null) return null;
  const eligible = presentVoters(core);
  const voters = SKIP_VOTES.of(core).votersOf(mediaId).filter((userId) => eligible.has(userId));
  return { mediaId, votes: voters.length, needed: votesNeeded(eligible.size, percent), voters };
}

/**
 * Tells everyone the count after someone came or went, or their permissions changed (the
 * threshold follows who is present and holds `vote`): the vote-skip part's hooks. A departure
 * that leaves the votes at the threshold does not skip by itself: the room acts on a vote, so
 * the next vote (a repeat counts) skips.
 */
export function publishVoteSkip(core: RoomCore): void {
  if (!core.room || core.room.options.voteSkipPercent === 0) return;
  const tally = voteSkipTally(core);
  if (tally) core.publish({ type: 'vote.skip', voteSkip: tally });
}

export function voteSkipField(core: RoomCore): Pick<MemberRoomView, 'voteSkip'> {
  const tally = voteSkipTally(core);
  return tally ? { voteSkip: tally } : {};
}
