/**
 * "Is the holder of this media grant still a member who may see this item?", asked of the room
 * (room.get as that member) and remembered per room and user for `ttlMs`: a player reads a
 * movie in hundreds of ranges, and one room command per range would load the room for
 * nothing. A kicked or banned member's links stop working within `ttlMs`.
 */
import type { MediaItem } from '../../actors/room/model.js';
import { AppError } from '../../errors/app-error.js';
import type { RoomClient } from '../rooms/room-client.js';

export const MEMBERSHIP_TTL_MS = 30_000;
const MAX_ENTRIES = 5000;

interface Entry {
  at: number;
  items: Promise<MediaItem[]>;
}

export class MemberItems {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly rooms: Pick<RoomClient, 'sendAsMember'>,
    private readonly ttlMs = MEMBERSHIP_TTL_MS,
    private readonly now: () => number = Date.now,
  ) {}

  /** The item as the member sees it now; `forbidden` for a non-member, without view_media_resources, or once the item is gone. */
  async item(roomId: string, userId: string, mediaId: string): Promise<MediaItem> {
    let item = (await this.itemsOf(roomId, userId)).find((candidate) => candidate.id === mediaId);
    if (!item) {
      // Added since the remembered answer: ask the room once more before refusing.
      this.forget(roomId, userId);
      item = (await this.itemsOf(roomId, userId)).find((candidate) => candidate.id === mediaId);
    }
    if (!item) throw new AppError('forbidden', 'this media link names media that is not in the room\'s playlist (removed?)');
    return item;
  }

  /** Forgets what is known of a member (tests, and a route that just saw them leave). */
  forget(roomId: string, userId: string): void {
    this.entries.delete(`${roomId}\0${userId}`);
  }

  private itemsOf(roomId: string, userId: string): Promise<MediaItem[]> {
    const key = `${roomId}\0${userId}`;
    const now = this.now();
    const entry = this.entries.get(key);
    if (entry && now - entry.at < this.ttlMs) return entry.items;
    const items = this.ask(roomId, userId);
    const fresh = { at: now, items };
    this.entries.set(key, fresh);
    if (this.entries.size > MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    // Only answers are remembered; a refusal or failure is asked again next time.
    items.catch(() => {
      if (this.entries.get(key) === fresh) this.entries.delete(key);
    });
    return items;
  }

  private async ask(roomId: string, userId: string): Promise<MediaItem[]> {
    const { result } = await this.rooms.sendAsMember(roomId, { kind: 'room.get' }, userId);
    if (result.access !== 'member') throw new AppError('forbidden', 'this media link belongs to someone who is no longer a member of the room');
    if (!result.playlist) throw new AppError('forbidden', 'this media link needs the view_media_resources permission in this room');
    return result.playlist;
  }
}
