/**
 * The room-review workflow's contract with its client (ReviewClient, the room review hook),
 * the management API and the Temporal UI: input, signals, query. Sandbox-safe.
 */
import { defineQuery } from '@temporalio/workflow';
import type { RoomReviewView } from '../../contracts/review.js';
import { REQUEST_QUERY_NAME } from '../review-messages.js';

export { approveSignal, rejectSignal } from '../review-messages.js';

/** The workflow type name, as the client starts it. */
export const ROOM_REVIEW_WORKFLOW = 'roomReview';

export interface RoomReviewInput {
  roomId: string;
  roomName: string;
  ownerId: string;
  /** ISO 8601. */
  requestedAt: string;
  /** Unreviewed past this (from the start), the room is rejected. */
  ttlMs: number;
}

/** The room under review as a reviewer sees it, during and after the decision. */
export const requestQuery = defineQuery<RoomReviewView>(REQUEST_QUERY_NAME);

export type { RoomReviewView };
