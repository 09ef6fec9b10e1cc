/**
 * Starting, listing, showing and deciding reviews, over the Temporal client. Used by the
 * accounts module (signup under review), the room review hook, and the management endpoint
 * behind `svc review`. Every Temporal call is bounded by a deadline and every failure is an
 * AppError: `not_found` for an id that names no review, `conflict` for a decided review,
 * `unavailable` when Temporal (or a worker, for queries) does not answer.
 */
import {
  Client,
  isGrpcDeadlineError,
  isGrpcServiceError,
  QueryNotRegisteredError,
  ServiceError,
  WorkflowExecutionAlreadyStartedError,
  WorkflowIdReusePolicy,
  WorkflowNotFoundError,
  type Connection,
  type WorkflowExecutionInfo,
} from '@temporalio/client';
import type { SearchAttributePair } from '@temporalio/common';
import { AppError, isAppError } from '../errors/index.js';
import { registrationReviewId, reviewKindOf, roomReviewId, SvcReviewKind, SvcReviewMode, SvcReviewState, SvcReviewSubject } from './ids.js';
import { REGISTRATION_REVIEW_WORKFLOW, type RegistrationReviewInput } from './registration-review/messages.js';
import {
  isRegistrationMode,
  isReviewKind,
  isReviewMode,
  isReviewState,
  parseDecisionInput,
  type RegistrationMode,
  type ReviewDecisionInput,
  type ReviewKind,
  type ReviewMode,
  type ReviewState,
  type ReviewSummary,
  type ReviewView,
} from '../contracts/review.js';
import { approveSignal, rejectSignal, REQUEST_QUERY_NAME } from './review-messages.js';
import { ROOM_REVIEW_WORKFLOW, type RoomReviewInput } from './room-review/messages.js';

export interface ReviewClientOptions {
  /** `temporal.task_queue`: where the review workers poll. */
  taskQueue: string;
  /** Deadline of each Temporal call. Default 5000. */
  timeoutMs?: number;
  /** How long approve/reject wait for the workflow to record the decision. Default 10000. */
  decisionTimeoutMs?: number;
}

export interface RegistrationReviewRequest {
  mode: RegistrationMode;
  /** What makes two signups the same request: the normalised username. */
  subjectKey: string;
  username: string;
  /** The credentials, encrypted by the caller; passed through to `RegistrationDecisions.approve`. */
  sealedPayload: string;
  ttlMs: number;
  requestedAt?: Date;
}

export interface RoomReviewRequest {
  roomId: string;
  roomName: string;
  ownerId: string;
  ttlMs: number;
  requestedAt?: Date;
}

export interface StartedReview {
  reviewId: string;
  runId: string;
  /** False when a review with this id was already running: that one is the review. */
  started: boolean;
}

export interface ReviewFilter {
  kind?: ReviewKind;
  mode?: ReviewMode;
  state?: ReviewState;
  /** 1..1000. */
  limit: number;
}

export const MAX_LIST_LIMIT = 1000;
const MIN_TTL_MS = 1_000;
const MAX_TTL_MS = 365 * 24 * 3600 * 1000;
const MAX_SEALED_PAYLOAD_CHARS = 256 * 1024;
const MAX_TEXT_CHARS = 256;
const DECISION_POLL_MS = 100;

export class ReviewClient {
  private readonly taskQueue: string;
  private readonly timeoutMs: number;
  private readonly decisionTimeoutMs: number;

  constructor(
    private readonly client: Client,
    options: ReviewClientOptions,
  ) {
    this.taskQueue = options.taskQueue;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.decisionTimeoutMs = options.decisionTimeoutMs ?? 10_000;
  }

  /** The client every role of `svc serve` builds from its Temporal connection and config. */
  static fromConnection(connection: Connection, options: ReviewClientOptions & { namespace: string }): ReviewClient {
    return new ReviewClient(new Client({ connection, namespace: options.namespace }), options);
  }

  /**
   * Starts the review of a signup, or finds the one running for the same mode and subject
   * (a retried signup is not a second request). A closed review does not block a new one.
   */
  async startRegistrationReview(request: RegistrationReviewRequest): Promise<StartedReview> {
    if (!isRegistrationMode(request.mode)) throw AppError.invalid([{ key: 'mode', message: `must be one of password, email, webauthn, oauth2` }]);
    const reviewId = registrationReviewId(request.mode, request.subjectKey);
    const input: RegistrationReviewInput = {
      reviewId,
      mode: request.mode,
      username: text('username', request.username),
      sealedPayload: sealed(request.sealedPayload),
      requestedAt: (request.requestedAt ?? new Date()).toISOString(),
      ttlMs: ttl(request.ttlMs),
    };
    return this.start(REGISTRATION_REVIEW_WORKFLOW, reviewId, input, [
      { key: SvcReviewKind, value: 'registration' },
      { key: SvcReviewMode, value: input.mode },
      { key: SvcReviewSubject, value: input.username },
      { key: SvcReviewState, value: 'pending' },
    ]);
  }

  /** Starts the review of a room, or finds the one running for it (idempotent per room id). */
  async startRoomReview(request: RoomReviewRequest): Promise<StartedReview> {
    const reviewId = roomReviewId(request.roomId);
    const input: RoomReviewInput = {
      roomId: request.roomId,
      roomName: text('roomName', request.roomName),
      ownerId: text('ownerId', request.ownerId),
      requestedAt: (request.requestedAt ?? new Date()).toISOString(),
      ttlMs: ttl(request.ttlMs),
    };
    return this.start(ROOM_REVIEW_WORKFLOW, reviewId, input, [
      { key: SvcReviewKind, value: 'room' },
      { key: SvcReviewMode, value: 'room' },
      { key: SvcReviewSubject, value: input.roomName },
      { key: SvcReviewState, value: 'pending' },
    ]);
  }

  /**
   * Reviews of this task queue matching the filter, from Temporal's visibility
   * store: eventually consistent (a review started a moment ago may be missing), and
   * `pending` lists only running reviews (a terminated one stays `pending` in its attributes).
   */
  async list(filter: ReviewFilter): Promise<ReviewSummary[]> {
    if (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > MAX_LIST_LIMIT) {
      throw AppError.invalid([{ key: 'limit', message: `must be an integer in 1..=${MAX_LIST_LIMIT}` }]);
    }
    const query = reviewQuery(this.taskQueue, filter);
    return this.call('list reviews', async () => {
      const found: ReviewSummary[] = [];
      for await (const info of this.client.workflow.list({ query, pageSize: Math.min(filter.limit, 100) })) {
        const summary = summaryOf(info);
        if (summary) found.push(summary);
        if (found.length >= filter.limit) break;
      }
      return found;
    });
  }

  /** Running reviews of one kind, counted by Temporal's visibility store (eventually consistent, like list). */
  async countPending(kind: ReviewKind): Promise<number> {
    const query = reviewQuery(this.taskQueue, { kind, state: 'pending' });
    return this.call('count pending reviews', async () => (await this.client.workflow.count(query)).count);
  }

  /** The review as its workflow answers the `request` query (also after it is decided). */
  async show(reviewId: string): Promise<ReviewView> {
    const kind = reviewKindOf(reviewId);
    if (!kind) throw notFound(reviewId);
    const view = await this.call(`review ${reviewId}`, () => this.client.workflow.getHandle(reviewId).query<ReviewView>(REQUEST_QUERY_NAME), reviewId);
    if (view.kind !== kind) throw notFound(reviewId);
    return view;
  }

  approve(reviewId: string, input: ReviewDecisionInput): Promise<ReviewView> {
    return this.decide(reviewId, 'approved', input);
  }

  reject(reviewId: string, input: ReviewDecisionInput & { reason: string }): Promise<ReviewView> {
    return this.decide(reviewId, 'rejected', input);
  }

  /**
   * Sends the decision signal, the way the Temporal UI does, and waits until the workflow
   * has recorded a decision. The first decision wins: when another reviewer's got there
   * first (checked before and after the signal), this one is a `conflict`.
   */
  private async decide(reviewId: string, state: 'approved' | 'rejected', input: ReviewDecisionInput): Promise<ReviewView> {
    const parsed = parseDecisionInput(input, state === 'rejected');
    if (!parsed.ok) throw AppError.invalid([{ key: parsed.key, message: parsed.problem }]);
    const decision = parsed.value;
    const before = await this.show(reviewId);
    if (before.state !== 'pending') throw alreadyDecided(before);

    const handle = this.client.workflow.getHandle(reviewId);
    try {
      await this.call(`review ${reviewId}`, () =>
        state === 'approved' ? handle.signal(approveSignal, decision) : handle.signal(rejectSignal, { ...decision, reason: decision.reason ?? '' }),
      reviewId);
    } catch (err) {
      // It closed (expired) between the query and the signal.
      if (isAppError(err) && err.code === 'not_found') throw alreadyDecided(await this.show(reviewId));
      throw err;
    }

    const after = await this.recorded(reviewId);
    const ours = after.state === state && after.decision?.reviewer === decision.reviewer && after.decision.reason === decision.reason;
    if (!ours) throw alreadyDecided(after);
    return after;
  }

  /** The view once it is no longer pending; the signal is in the history, the query shows it once a worker has run it. */
  private async recorded(reviewId: string): Promise<ReviewView> {
    const deadline = Date.now() + this.decisionTimeoutMs;
    for (;;) {
      const view = await this.show(reviewId);
      if (view.state !== 'pending') return view;
      if (Date.now() >= deadline) {
        throw new AppError(
          'deadline_exceeded',
          `the decision was sent to review ${reviewId} but not recorded within ${this.decisionTimeoutMs} ms; "svc review show ${reviewId}" tells when it is`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, DECISION_POLL_MS));
    }
  }

  private async start(workflowType: string, reviewId: string, input: RegistrationReviewInput | RoomReviewInput, attributes: SearchAttributePair[]): Promise<StartedReview> {
    try {
      const handle = await this.client.withDeadline(Date.now() + this.timeoutMs, () =>
        this.client.workflow.start(workflowType, {
          taskQueue: this.taskQueue,
          workflowId: reviewId,
          args: [input],
          // A new review may follow a closed one (an expired signup asks again); a running one is reused below.
          workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
          typedSearchAttributes: attributes,
        }),
      );
      return { reviewId, runId: handle.firstExecutionRunId, started: true };
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw this.appError(`start ${reviewId}`, err, undefined);
      const running = await this.call(`review ${reviewId}`, () => this.client.workflow.getHandle(reviewId).describe(), reviewId);
      return { reviewId, runId: running.runId, started: false };
    }
  }

  /** Runs one Temporal call under the deadline and turns its failure into an AppError. */
  private async call<T>(what: string, fn: () => Promise<T>, reviewId?: string): Promise<T> {
    try {
      return await this.client.withDeadline(Date.now() + this.timeoutMs, fn);
    } catch (err) {
      throw this.appError(what, err, reviewId);
    }
  }

  private appError(what: string, err: unknown, reviewId: string | undefined): AppError {
    if (isAppError(err)) return err;
    if (reviewId !== undefined && (err instanceof WorkflowNotFoundError || err instanceof QueryNotRegisteredError)) {
      return new AppError('not_found', notFound(reviewId).message, [], { cause: err });
    }
    if (isGrpcDeadlineError(err)) {
      return new AppError(
        'unavailable',
        `${what}: Temporal did not answer within ${this.timeoutMs} ms (a query also needs a worker, "svc serve --role worker", polling task queue "${this.taskQueue}")`,
        [],
        { cause: err },
      );
    }
    if (err instanceof ServiceError || isGrpcServiceError(err)) {
      return new AppError('unavailable', `${what}: Temporal refused or failed the call: ${err.message}`, [], { cause: err });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new AppError('internal', `${what}: ${message}`, [], { cause: err });
  }
}

/** The visibility query of a filter. Values are checked against the enums, so none needs escaping. */
export function reviewQuery(taskQueue: string, filter: Omit<ReviewFilter, 'limit'>): string {
  const issues = [];
  if (filter.kind !== undefined && !isReviewKind(filter.kind)) issues.push({ key: 'kind', message: 'must be registration or room' });
  if (filter.mode !== undefined && !isReviewMode(filter.mode)) issues.push({ key: 'mode', message: 'must be password, email, webauthn, oauth2 or room' });
  if (filter.state !== undefined && !isReviewState(filter.state)) issues.push({ key: 'state', message: 'must be pending, approved, rejected or expired' });
  if (issues.length > 0) throw AppError.invalid(issues);
  const clauses = [`TaskQueue = ${quoted(taskQueue)}`, filter.kind ? `SvcReviewKind = "${filter.kind}"` : `SvcReviewKind IN ("registration", "room")`];
  if (filter.mode) clauses.push(`SvcReviewMode = "${filter.mode}"`);
  if (filter.state) clauses.push(`SvcReviewState = "${filter.state}"`);
  if (filter.state === 'pending') clauses.push(`ExecutionStatus = "Running"`);
  return clauses.join(' AND ');
}

function summaryOf(info: WorkflowExecutionInfo): ReviewSummary | undefined {
  const attributes = info.typedSearchAttributes;
  const kind = attributes.get(SvcReviewKind);
  const mode = attributes.get(SvcReviewMode);
  const state = attributes.get(SvcReviewState);
  if (!isReviewKind(kind) || !isReviewMode(mode) || !isReviewState(state)) return undefined;
  return {
    reviewId: info.workflowId,
    kind,
    mode,
    subject: attributes.get(SvcReviewSubject) ?? '',
    state,
    startTime: info.startTime.toISOString(),
    status: info.status.name,
  };
}

function quoted(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

function notFound(reviewId: string): AppError {
  return new AppError('not_found', `no review ${reviewId}; "svc review list" shows the reviews`);
}

function alreadyDecided(view: ReviewView): AppError {
  const by = view.decision ? ` (by ${view.decision.reviewer} at ${view.decision.decidedAt})` : '';
  return new AppError('conflict', `review ${view.reviewId} is already ${view.state}${by}`);
}

function text(key: string, value: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT_CHARS) {
    throw AppError.invalid([{ key, message: `must be 1..${MAX_TEXT_CHARS} characters` }]);
  }
  return value;
}

function sealed(value: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_SEALED_PAYLOAD_CHARS) {
    throw AppError.invalid([{ key: 'sealedPayload', message: `must be 1..${MAX_SEALED_PAYLOAD_CHARS} characters of sealed text` }]);
  }
  return value;
}

function ttl(ms: number): number {
  if (!Number.isSafeInteger(ms) || ms < MIN_TTL_MS || ms > MAX_TTL_MS) {
    throw AppError.invalid([{ key: 'ttlMs', message: `must be an integer in ${MIN_TTL_MS}..=${MAX_TTL_MS}` }]);
  }
  return ms;
}
