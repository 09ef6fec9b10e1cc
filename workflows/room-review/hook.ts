/**
 * The room actor's review hook: a room created under review (`room.createRoomNeedReview`)
 * starts its room-review workflow. Idempotent per room, as the actor requires (it calls again
 * when the owner retries `room.create` on a pending room): the workflow id is derived from the
 * room id and a running review is found instead of started twice.
 */
import type { RoomReviewHook, RoomUnderReview } from '../../actors/index.js';
import type { ReviewClient } from '../review-client.js';

/**
 * How long a room waits for a reviewer before it is rejected. A constant until a startup key
 * or runtime setting for it exists.
 */
export const ROOM_REVIEW_TTL_MS = 7 * 24 * 3600 * 1000;

export class WorkflowRoomReviewHook implements RoomReviewHook {
  constructor(
    private readonly reviews: Pick<ReviewClient, 'startRoomReview'>,
    private readonly ttlMs = ROOM_REVIEW_TTL_MS,
  ) {}

  async roomCreatedPendingReview(room: RoomUnderReview): Promise<void> {
    await this.reviews.startRoomReview({ roomId: room.id, roomName: room.name, ownerId: room.ownerId, ttlMs: this.ttlMs });
  }
}
