/**
 * registration-review: a signup waits here for a reviewer's `approve` or `reject` signal
 * (Temporal UI or `svc review`), or expires. Approval creates the account through the
 * accounts module, which receives the sealed payload as it was given: it is never opened here.
 * Workflow code: deterministic, sandboxed, imports only @temporalio/workflow and contracts.
 */
import { proxyActivities, setHandler } from '@temporalio/workflow';
import type { ReviewActivities } from '../activities.js';
import { DECISION_ACTIVITY_OPTIONS, DecisionGate, decisionNotApplied } from '../decision-gate.js';
import type { RegistrationReviewView } from '../../contracts/review.js';
import { reviewMetrics } from '../review-metrics.js';
import { requestQuery, type RegistrationReviewInput } from './messages.js';

const { approveRegistration, rejectRegistration, expireRegistration } = proxyActivities<ReviewActivities>(DECISION_ACTIVITY_OPTIONS);

export async function registrationReview(input: RegistrationReviewInput): Promise<RegistrationReviewView> {
  const { reviewId } = input;
  const gate = new DecisionGate(reviewId, input.ttlMs);
  let userId: string | undefined;
  const view = (): RegistrationReviewView => ({
    reviewId,
    kind: 'registration',
    mode: input.mode,
    username: input.username,
    state: gate.state,
    requestedAt: input.requestedAt,
    expiresAt: gate.expiresAt,
    ...(gate.decision ? { decision: gate.decision } : {}),
    ...(userId !== undefined ? { userId } : {}),
  });
  setHandler(requestQuery, view);
  reviewMetrics.started('registration');

  const { state, decision } = await gate.outcome();
  reviewMetrics.decided('registration', state);
  try {
    if (state === 'approved') {
      const created = await approveRegistration({
        reviewId,
        sealedPayload: input.sealedPayload,
        reviewer: decision.reviewer,
        ...(decision.reason !== undefined ? { reason: decision.reason } : {}),
      });
      userId = created.userId;
    } else if (state === 'rejected') {
      await rejectRegistration({ reviewId, reviewer: decision.reviewer, reason: decision.reason ?? '' });
    } else {
      await expireRegistration({ reviewId });
    }
  } catch (err) {
    decisionNotApplied(`the ${state} registration could not be applied`, err);
  }
  return view();
}
