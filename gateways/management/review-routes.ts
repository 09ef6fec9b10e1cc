/**
 * The review part of the management API, behind `svc review`: list, show, approve, reject.
 * The reviewer is the caller the CLI names in the actor header (`cli:<user>@<host>`); the
 * management endpoint itself is the authorisation (a 0600 socket or a token).
 */
import type Router from '@koa/router';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { MAX_LIST_LIMIT, type ReviewClient, type ReviewFilter } from '../../workflows/index.js';
import { isReviewKind, isReviewMode, isReviewState, REASON_MAX_CHARS } from '../../contracts/review.js';
import { ACTOR_HEADER, routes, type ReviewDecisionRequest } from '../../contracts/management.js';
import { singleParams } from './query.js';

const DEFAULT_LIMIT = 50;

export function mountReviewRoutes(router: Router, reviews: ReviewClient | undefined, reviewerOf: (header: string) => string): void {
  const client = (): ReviewClient => {
    if (reviews) return reviews;
    throw new AppError('unavailable', 'review workflows need Temporal; this management endpoint was started without a review client');
  };

  router.get(routes.reviews, async (ctx) => {
    const filter = parseFilter(ctx.query);
    ctx.body = { reviews: await client().list(filter) };
  });

  router.get('/v1/reviews/:id', async (ctx) => {
    ctx.body = await client().show(ctx.params.id ?? '');
  });

  router.post('/v1/reviews/:id/approve', async (ctx) => {
    const { reason } = parseDecision(ctx.request.body, false);
    const reviewer = reviewerOf(ctx.get(ACTOR_HEADER));
    ctx.body = await client().approve(ctx.params.id ?? '', { reviewer, ...(reason !== undefined ? { reason } : {}) });
  });

  router.post('/v1/reviews/:id/reject', async (ctx) => {
    const { reason } = parseDecision(ctx.request.body, true);
    const reviewer = reviewerOf(ctx.get(ACTOR_HEADER));
    ctx.body = await client().reject(ctx.params.id ?? '', { reviewer, reason: reason ?? '' });
  });
}

function parseFilter(query: Record<string, string | string[] | undefined>): ReviewFilter {
  const issues: FieldIssue[] = [];
  const single = singleParams(query, issues);
  const kind = single('kind');
  const mode = single('mode');
  const state = single('state');
  const limitText = single('limit');
  if (kind !== undefined && !isReviewKind(kind)) issues.push({ key: 'kind', message: 'must be registration or room' });
  if (mode !== undefined && !isReviewMode(mode)) issues.push({ key: 'mode', message: 'must be password, email, webauthn, oauth2 or room' });
  if (state !== undefined && !isReviewState(state)) issues.push({ key: 'state', message: 'must be pending, approved, rejected or expired' });
  const limit = limitText === undefined ? DEFAULT_LIMIT : Number(limitText);
  if (limitText !== undefined && (!/^\d+$/.test(limitText) || limit < 1 || limit > MAX_LIST_LIMIT)) {
    issues.push({ key: 'limit', message: `must be an integer in 1..=${MAX_LIST_LIMIT}` });
  }
  if (issues.length > 0) throw AppError.invalid(issues);
  return {
    ...(isReviewKind(kind) ? { kind } : {}),
    ...(isReviewMode(mode) ? { mode } : {}),
    ...(isReviewState(state) ? { state } : {}),
    limit,
  };
}

function parseDecision(body: unknown, reasonRequired: boolean): ReviewDecisionRequest {
  if (body === undefined || body === null) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw AppError.invalid([{ key: 'body', message: 'must be a JSON object' }]);
  const { reason, ...rest } = body as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw AppError.invalid(unknown.map((key) => ({ key, message: 'is not a field of a review decision (the reviewer is the caller)' })));
  }
  if (reason !== undefined && typeof reason !== 'string') throw AppError.invalid([{ key: 'reason', message: 'must be a string' }]);
  const text = reason?.trim() ?? '';
  if (reasonRequired && text.length === 0) throw AppError.invalid([{ key: 'reason', message: 'is required to reject' }]);
  if (text.length > REASON_MAX_CHARS) throw AppError.invalid([{ key: 'reason', message: `must be at most ${REASON_MAX_CHARS} characters` }]);
  return text.length > 0 ? { reason: text } : {};
}
