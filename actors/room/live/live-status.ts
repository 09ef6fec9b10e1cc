/**
 * Which of the room's live items are on air. The RTMP ingest of the replica a publisher
 * reached announces `live.status {online: true}` when the publish starts and again on every
 * refresh while it lasts (gateways/rtmp/live-ingest.ts), and `{online: false}` when it ends.
 * Nothing of this is stored: a room that fails over starts with nothing on air and learns it
 * again from the next re-announcement, and an item whose publisher's replica died without
 * saying so goes offline once its announcements stop for `ttlMs`.
 */
import { StateSlice } from '../core.js';

/** A live item not re-announced within this goes offline (the ingest re-announces every 5 s). */
export const DEFAULT_LIVE_STATUS_TTL_MS = 20_000;

/** The room's live items on air now, in memory only. */
export const LIVE = new StateSlice('live status', (core) => new LiveStatus(core.deps.liveStatusTtlMs ?? DEFAULT_LIVE_STATUS_TTL_MS));

export class LiveStatus {
  /** mediaId -> when it was last announced online (server ms). */
  private readonly seen = new Map<string, number>();

  constructor(readonly ttlMs: number) {}

  /** Records an announcement; true when the item's status changed. */
  announce(mediaId: string, online: boolean, now: number): boolean {
    const was = this.seen.has(mediaId);
    if (online) this.seen.set(mediaId, now);
    else this.seen.delete(mediaId);
    return was !== online;
  }

  /** Forgets an item (removed from the playlist); true when it was online. */
  forget(mediaId: string): boolean {
    return this.seen.delete(mediaId);
  }

  /** Items whose announcements stopped; they are forgotten. */
  expire(now: number): string[] {
    const gone: string[] = [];
    for (const [mediaId, at] of this.seen) {
      if (now - at > this.ttlMs) {
        this.seen.delete(mediaId);
        gone.push(mediaId);
      }
    }
    return gone;
  }

  online(): string[] {
    return [...this.seen.keys()].sort();
  }

  get size(): number {
    return this.seen.size;
  }

  clear(): void {
    this.seen.clear();
  }
}
