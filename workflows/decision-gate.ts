/**
 * The part both review workflows share: wait for the first valid decision signal or the
 * expiry, keep `SvcReviewState` in step, and run the decision's activity with the retry
 * policy every decision gets. Sandbox-safe (workflow code).
 */
import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  log,
  setHandler,
  upsertSearchAttributes,
  type ActivityOptions,
} from '@temporalio/workflow';
import { SvcReviewState } from './ids.js';
import { EXPIRY_REVIEWER, parseDecisionInput, type ReviewDecision, type ReviewOutcome, type ReviewState } from '../contracts/review.js';
import { approveSignal, rejectSignal } from './review-messages.js';

/**
 * A decision must take effect however long the other side is down (an account service being
 * redeployed, a NATS outage): unlimited attempts, backing off from 1 s to every 30 s. Only a
 * non-retryable failure (a final answer such as `conflict`) ends the attempts.
 */
export const DECISION_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '30s',
  retry: { initialInterval: '1s', backoffCoefficient: 2, maximumInterval: '30s', maximumAttempts: Infinity },
};

export interface Outcome {
  state: ReviewOutcome;
  decision: ReviewDecision;
}

export class DecisionGate {
  state: ReviewState = 'pending';
  decision: ReviewDecision | undefined;
  readonly expiresAt: string;

  constructor(
    private readonly reviewId: string,
    private readonly ttlMs: number,
  ) {
    if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
      throw ApplicationFailure.create({ type: 'invalid_argument', message: `ttlMs must be a positive integer, got ${String(ttlMs)}`, nonRetryable: true });
    }
    // Date.now() in a workflow is the time of the current workflow task: deterministic on replay.
    this.expiresAt = new Date(Date.now() + ttlMs).toISOString();
    setHandler(approveSignal, (input) => this.take('approved', input));
    setHandler(rejectSignal, (input) => this.take('rejected', input));
  }

  /** Resolves with the first decision, or with `expired` once the ttl has passed without one. */
  async outcome(): Promise<Outcome> {
    const decided = await condition(() => this.decision !== undefined, this.ttlMs);
    if (!decided) {
      this.record('expired', { reviewer: EXPIRY_REVIEWER, reason: `not reviewed by ${this.expiresAt}`, decidedAt: new Date().toISOString() });
    }
    const { state, decision } = this;
    if (state === 'pending' || decision === undefined) throw new Error('unreachable: a review left the gate undecided');
    return { state, decision };
  }

  /**
   * A signal handler must not throw (that would fail the workflow task over and over), and a
   * signal cannot answer its sender: a late or malformed decision is logged and ignored, and
   * the `request` query shows what was recorded.
   */
  private take(state: 'approved' | 'rejected', payload: unknown): void {
    if (this.decision) {
      log.warn('review decision ignored: already decided', { reviewId: this.reviewId, ignored: state, state: this.state });
      return;
    }
    const parsed = parseDecisionInput(payload, state === 'rejected');
    if (!parsed.ok) {
      log.warn('review decision ignored: invalid signal input', { reviewId: this.reviewId, signal: state === 'approved' ? 'approve' : 'reject', problem: parsed.problem });
      return;
    }
    this.record(state, { ...parsed.value, decidedAt: new Date().toISOString() });
  }

  private record(state: ReviewOutcome, decision: ReviewDecision): void {
    this.state = state;
    this.decision = decision;
    upsertSearchAttributes([{ key: SvcReviewState, value: state }]);
    log.info('review decided', { reviewId: this.reviewId, state, reviewer: decision.reviewer });
  }
}

/**
 * Rethrows an activity's final failure as the workflow's own, keeping our error code as its
 * type, so the Temporal UI shows why the decision could not be applied (e.g. `not_found` for
 * a room deleted while under review).
 */
export function decisionNotApplied(what: string, err: unknown): never {
  if (err instanceof ActivityFailure && err.cause instanceof ApplicationFailure) {
    throw ApplicationFailure.create({
      type: err.cause.type ?? 'internal',
      message: `${what}: ${err.cause.message}`,
      nonRetryable: true,
      cause: err,
    });
  }
  throw err;
}
