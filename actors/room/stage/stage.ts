/**
 * The room's stage and its call seats, in memory only like the voice call: a share is a screen
 * shown through the SFU while its sharer is in the room, so it needs no row; it ends with the
 * activation. After a handoff or a crash the room comes back with an empty stage, the sharers'
 * screen_share grants are taken back (on a drain; after a crash their clients see the stage
 * gone in the snapshot and stop sending), and a sharer who wants to go on starts again.
 */
import type { StageShare } from '../../../contracts/room/model.js';

export class Stage {
  private readonly shares = new Map<string, StageShare>();

  get size(): number {
    return this.shares.size;
  }

  share(userId: string): StageShare | undefined {
    return this.shares.get(userId);
  }

  /** The shares, oldest first. */
  list(): StageShare[] {
    return [...this.shares.values()].map((share) => ({ ...share }));
  }

  userIds(): string[] {
    return [...this.shares.keys()];
  }

  add(share: StageShare): void {
    this.shares.set(share.userId, share);
  }

  remove(userId: string): boolean {
    return this.shares.delete(userId);
  }

  clear(): void {
    this.shares.clear();
  }
}

/**
 * Who the room let into its SFU call with a microphone (use_webrtc), and which of them hold a
 * camera's share of the room's bandwidth (sfu.roomMaxKbps). A seat is held while its member is
 * present with use_webrtc; losing either frees it (and, for use_webrtc, ends their call).
 */
export class CallSeats {
  readonly talkers = new Set<string>();
  readonly cameras = new Set<string>();

  release(userId: string): boolean {
    const had = this.talkers.delete(userId);
    this.cameras.delete(userId);
    return had;
  }

  clear(): void {
    this.talkers.clear();
    this.cameras.clear();
  }
}
