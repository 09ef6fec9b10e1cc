/**
 * The votes to skip one item (docs/2026-11-26-votes-and-polls.md): they belong to one item, so
 * a vote for another item starts a new set, and a change of item resets them without every
 * path that changes the item knowing about votes. They live in the activation's memory: a
 * failover forgets them, and voting again is one press. Who counts is vote-skip.ts's business.
 */
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

  /** Drops `userId`'s vote, whatever the item (a closed account: member.forget). */
  forget(userId: string): void {
    this.voters.delete(userId);
  }

  clear(): void {
    this.mediaId = null;
    this.voters.clear();
  }
}
