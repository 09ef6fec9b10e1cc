/**
 * The registration-review workflow's contract with its client (ReviewClient), the management
 * API and the Temporal UI: input, signals, query. Sandbox-safe.
 */
import { defineQuery } from '@temporalio/workflow';
import type { RegistrationMode, RegistrationReviewView } from '../../contracts/review.js';
import { REQUEST_QUERY_NAME } from '../review-messages.js';

export { approveSignal, rejectSignal } from '../review-messages.js';

/** The workflow type name, as the client starts it. */
export const REGISTRATION_REVIEW_WORKFLOW = 'registrationReview';

export interface RegistrationReviewInput {
  reviewId: string;
  mode: RegistrationMode;
  username: string;
  /**
   * The signup's credentials, already encrypted by the accounts module. The workflow stores
   * and forwards it, never opens it: plaintext must not reach the history.
   */
  sealedPayload: string;
  /** ISO 8601. */
  requestedAt: string;
  /** The review expires (and the signup is dropped) this long after it starts. */
  ttlMs: number;
}

/** The pending request as a reviewer sees it, during and after the decision; no secrets. */
export const requestQuery = defineQuery<RegistrationReviewView>(REQUEST_QUERY_NAME);

export type { RegistrationReviewView };
