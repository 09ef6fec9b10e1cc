/**
 * What the room tells the outside world when a room is created under review
 * (`room.createRoomNeedReview`). `workflows/room-review/hook.ts` starts the room-review
 * Temporal workflow here; that workflow answers with a `room.review {approve}` command from a
 * service caller.
 */

export interface RoomUnderReview {
  id: string;
  name: string;
  ownerId: string;
}

export interface RoomReviewHook {
  /**
   * Called after the room is committed, before `room.create` is answered, and again when the
   * owner retries `room.create` on a room still pending: implementations must be idempotent
   * per room id (a workflow id derived from it does that).
   */
  roomCreatedPendingReview(room: RoomUnderReview): Promise<void>;
}
