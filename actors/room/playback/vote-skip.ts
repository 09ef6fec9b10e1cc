/**
 * Votes to skip the current item (docs/2026-11-26-votes-and-polls.md). The votes belong to one
 * item: a vote for another item starts a new set, so a change of item resets them without
 * every path that changes the item knowing about votes. They live in the activation's memory:
 * a failover forgets them, and voting again is one press.
 *
 * Who counts is decided when asked, from who is present now and holds `vote`: the threshold
 * follows people arriving and leaving, and a voter who left no longer counts.
 */
import type { MemberRoomView, VoteSkip } from '../../../contracts/room/model.js';
import type { RoomCore } from '../core.js';

export class SkipVotes {
  private mediaId: string | null = null;
  private readonly voters = new Set<string>();

  /** Records (or takes back) `userId`'s vote on `mediaId`; votes on any other item are dropped. */
  set(mediaId: string, userId: string, vote: boolean): void {
    if (this.mediaId !== mediaId) {
      this.mediaId = mediaId;
      this.voters.clear();
    }
    if (vote) this.voters.add(userId);
    else this.voters.delete(userId);
  }

  votersOf(mediaId: string): string[] {
    return this.mediaId === mediaId ? [...this.voters] : [];
  }

  clear(): void {
    this.mediaId = null;
    this.voters.clear();
  }
}

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
  const voters = core.skipVotes.votersOf(mediaId).filter((userId) => eligible.has(userId));
  return { mediaId, votes: voters.length, needed: votesNeeded(eligible.size, percent), voters };
}

/**
 * Tells everyone the count after someone came or went (the threshold follows who is present).
 * A departure that leaves the votes at the threshold does not skip by itself: the room acts on
 * a vote, so the next vote (a repeat counts) skips.
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
