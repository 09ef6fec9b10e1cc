/**
 * room-review: a room created under review (`room.createRoomNeedReview`) waits here for a
 * reviewer's `approve` or `reject` signal. The decision goes to the room actor as
 * `room.review {approve}`; a room nobody reviewed in time is rejected.
 * Workflow code: deterministic, sandboxed, imports only @temporalio/workflow and contracts.
 */
import { proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { ReviewActivities } from '../activities.js';
import { DECISION_ACTIVITY_OPTIONS, DecisionGate, decisionNotApplied } from '../decision-gate.js';
import type { RoomReviewView } from '../../contracts/review.js';
import { reviewMetrics } from '../review-metrics.js';
import { requestQuery, type RoomReviewInput } from './messages.js';

const { decideRoom } = proxyActivities<ReviewActivities>(DECISION_ACTIVITY_OPTIONS);

export async function roomReview(input: RoomReviewInput): Promise<RoomReviewView> {
  // room-review:<roomId>, as ReviewClient.startRoomReview names it.
  const reviewId = workflowInfo().workflowId;
  const gate = new DecisionGate(reviewId, input.ttlMs);
  const view = (): RoomReviewView => ({
    reviewId,
    kind: 'room',
    roomId: input.roomId,
    roomName: input.roomName,
    ownerId: input.ownerId,
    state: gate.state,
    requestedAt: input.requestedAt,
    expiresAt: gate.expiresAt,
    ...(gate.decision ? { decision: gate.decision } : {}),
  });
  setHandler(requestQuery, view);
  reviewMetrics.started('room');

  const { state, decision } = await gate.outcome();
  reviewMetrics.decided('room', state);
  try {
    await decideRoom({
      roomId: input.roomId,
      approve: state === 'approved',
      reviewer: decision.reviewer,
      ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
    });
  } catch (err) {
    decisionNotApplied(`the room could not be ${state === 'approved' ? 'approved' : 'rejected'}`, err);
  }
  return view();
}
