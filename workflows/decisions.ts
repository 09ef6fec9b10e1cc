/**
 * What a review decision does outside Temporal, as interfaces the worker is given: the
 * accounts module implements `RegistrationDecisions`, the room actor is reached through
 * `RoomDecisions` (room-review/room-decisions.ts). Activities call them; Temporal retries them,
 * so every method must be idempotent per review.
 */
export interface RegistrationDecisions {
  /** Creates the account exactly once per reviewId (idempotent; retried by Temporal). */
  approve(input: { reviewId: string; sealedPayload: string; reviewer: string; reason?: string }): Promise<{ userId: string }>;
  reject(input: { reviewId: string; reviewer: string; reason: string }): Promise<void>;
  expire(input: { reviewId: string }): Promise<void>;
}

export interface RoomDecisions {
  /** Sends `room.review {approve}` to the room actor as a service caller; idempotent. */
  decide(input: { roomId: string; approve: boolean; reviewer: string; reason?: string }): Promise<void>;
}
