/**
 * "May the holder of this media grant still play this item?", asked of the room
 * (`playlist.playable` as that member) and remembered per room, user and item for `ttlMs`: a
 * player reads a movie in hundreds of ranges, and one room command per range would load the
 * room for nothing. A kicked or banned member's links stop working within `ttlMs`, and so does
 * a link a member without view_media_resources got for the item that was playing when another
 * one became current (docs/2026-11-26-guests-watch.md). A grant names one item: it never
 * reaches another.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import { AppError, isAppError } from '../../errors/index.js';
import type { RoomClient } from '../rooms/room-client.js';

export const MEMBERSHIP_TTL_MS = 30_000;
const MAX_ENTRIES = 5000;

interface Entry {
  at: number;
  item: Promise<MediaItem>;
}

export class MemberItems {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly rooms: Pick<RoomClient, 'sendAsMember'>,
    private readonly ttlMs = MEMBERSHIP_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The item as the member may play it now; `forbidden` for a non-member, an item they may no longer play, or once the item is gone. */
  item(roomId: string, userId: string, mediaId: string): Promise<MediaItem> {
    const key = `${roomId}\0${userId}\0${mediaId}`;
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.ttlMs) return entry.item;
    const item = this.ask(roomId, userId, mediaId);
    const fresh = { at: now, item };
    this.entries.set(key, fresh);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    // Only answers are remembered; a refusal or failure is asked again next time.
    item.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return item;
  }

  /** Forgets what is known of a member (tests, and a route that just saw them leave). */
  forget(roomId: string, userId: string): void {
    const prefix = `${roomId}\0${userId}\0`;
    for (const key of [...this.entries.keys()]) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  private async ask(roomId: string, userId: string, mediaId: string): Promise<MediaItem> {
    try {
      const { result } = await this.rooms.sendAsMember(roomId, { kind: 'playlist.playable', mediaId }, userId);
      return result.item;
    } catch (error) {
      if (isAppError(error) && error.code === 'not_found') throw new AppError('forbidden', 'this media link names media that is not in the room\'s playlist (removed?)');
      if (isAppError(error) && error.code === 'forbidden') throw new AppError('forbidden', `this media link no longer plays: ${error.message}`);
      throw error;
    }
  }
}
