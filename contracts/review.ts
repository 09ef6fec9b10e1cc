/**
 * The review contract shared by the review workflows, their client, the management API and
 * the `svc review` CLI: kinds, modes, states, the views a reviewer sees, and the rules of a
 * decision signal. A leaf: it imports nothing, so the workflow sandbox, the server and the CLI
 * all load the same file.
 */

export const REVIEW_KINDS = ['registration', 'room'] as const;
export type ReviewKind = (typeof REVIEW_KINDS)[number];

/** How the account asked to sign up; `room` is the mode of every room review. */
export const REGISTRATION_MODES = ['password', 'email', 'webauthn', 'oauth2'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];
export const REVIEW_MODES = [...REGISTRATION_MODES, 'room'] as const;
export type ReviewMode = (typeof REVIEW_MODES)[number];

export const REVIEW_STATES = ['pending', 'approved', 'rejected', 'expired'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];
export type ReviewOutcome = Exclude<ReviewState, 'pending'>;

/** Who decided an expired review (no person did). */
export const EXPIRY_REVIEWER = 'system:expiry';
export const REVIEWER_MAX_CHARS = 200;
export const REASON_MAX_CHARS = 1000;

/** The payload of the `approve` and `reject` signals, as the Temporal UI or the CLI sends it. */
export interface ReviewDecisionInput {
  reviewer: string;
  /** Optional to approve, required to reject. */
  reason?: string;
}

export interface ReviewDecision {
  reviewer: string;
  reason?: string;
  /** ISO 8601. */
  decidedAt: string;
}

/** A signup waiting for (or past) review. Never carries the sealed credentials. */
export interface RegistrationReviewView {
  reviewId: string;
  kind: 'registration';
  mode: RegistrationMode;
  username: string;
  state: ReviewState;
  /** ISO 8601. */
  requestedAt: string;
  /** ISO 8601: when the review expires unless decided. */
  expiresAt: string;
  decision?: ReviewDecision;
  /** The account created by the approval, once it exists. */
  userId?: string;
}

export interface RoomReviewView {
  reviewId: string;
  kind: 'room';
  roomId: string;
  roomName: string;
  ownerId: string;
  state: ReviewState;
  requestedAt: string;
  expiresAt: string;
  decision?: ReviewDecision;
}

export type ReviewView = RegistrationReviewView | RoomReviewView;

/** One line of a review listing, from the search attributes (no query to the workflow). */
export interface ReviewSummary {
  reviewId: string;
  kind: ReviewKind;
  mode: ReviewMode;
  /** The username, or the room name. */
  subject: string;
  state: ReviewState;
  /** ISO 8601. */
  startTime: string;
  /** The Temporal execution status: RUNNING, COMPLETED, FAILED, TERMINATED, ... */
  status: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; key: string; problem: string };

/**
 * Checks a decision payload from outside (a signal typed into the Temporal UI, a management
 * request). `reasonRequired` for rejections. Text is trimmed; empty optional text is dropped.
 */
export function parseDecisionInput(payload: unknown, reasonRequired: boolean): Parsed<ReviewDecisionInput> {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    return { ok: false, key: 'input', problem: 'the input must be a JSON object such as {"reviewer":"alice"}' };
  }
  const { reviewer, reason } = payload as Record<string, unknown>;
  if (typeof reviewer !== 'string' || reviewer.trim().length === 0) {
    return { ok: false, key: 'reviewer', problem: 'reviewer must be a non-empty string' };
  }
  if (reviewer.trim().length > REVIEWER_MAX_CHARS) {
    return { ok: false, key: 'reviewer', problem: `reviewer must be at most ${REVIEWER_MAX_CHARS} characters` };
  }
  if (reason !== undefined && reason !== null && typeof reason !== 'string') {
    return { ok: false, key: 'reason', problem: 'reason must be a string' };
  }
  const text = typeof reason === 'string' ? reason.trim() : '';
  if (text.length > REASON_MAX_CHARS) return { ok: false, key: 'reason', problem: `reason must be at most ${REASON_MAX_CHARS} characters` };
  if (reasonRequired && text.length === 0) return { ok: false, key: 'reason', problem: 'reason is required to reject' };
  return { ok: true, value: { reviewer: reviewer.trim(), ...(text.length > 0 ? { reason: text } : {}) } };
}

export function isReviewKind(value: unknown): value is ReviewKind {
  return typeof value === 'string' && (REVIEW_KINDS as readonly string[]).includes(value);
}

export function isReviewMode(value: unknown): value is ReviewMode {
  return typeof value === 'string' && (REVIEW_MODES as readonly string[]).includes(value);
}

export function isRegistrationMode(value: unknown): value is RegistrationMode {
  return typeof value === 'string' && (REGISTRATION_MODES as readonly string[]).includes(value);
}

export function isReviewState(value: unknown): value is ReviewState {
  return typeof value === 'string' && (REVIEW_STATES as readonly string[]).includes(value);
}
