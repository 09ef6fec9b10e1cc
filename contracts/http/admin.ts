/**
 * The admin endpoints (`/api/admin/...`): accounts and reviews, for service administrators
 * (role `admin` or `root`, read with the session on every request, so a demoted administrator
 * is refused at once). Within that, accounts/admin-policy.ts decides who may act on whom: an
 * `admin` bans and unbans plain users; only a `root` acts on administrators or changes roles;
 * nobody acts on their own account here. A leaf module (zod, error codes, review contract).
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { REASON_MAX_CHARS, REGISTRATION_MODES, REVIEW_KINDS, REVIEW_MODES, REVIEW_STATES } from '../review.js';
import { ServiceRole, UserView } from './user-view.js';
import { defineEndpoint } from './endpoint.js';

const TAGS = ['admin'];
const userParams = z.strictObject({ userId: z.uuid().meta({ description: 'The user id (GET /api/admin/users lists them)' }) });
const reviewParams = z.strictObject({ reviewId: oneLineText().min(1).max(300).meta({ description: 'registration-review:<mode>:<subject> or room-review:<roomId>' }) });
const reason = oneLineText().trim().min(1).max(REASON_MAX_CHARS);

export const UserDetails = z
  .object({
    user: UserView,
    credentials: z.object({
      password: z.enum(['opaque', 'argon2']).nullable().meta({ description: 'Which kind of password, if any' }),
      passkeys: z.number().int(),
      oauth2: z.array(z.string()).meta({ description: 'OAuth2 provider instances bound to the account' }),
    }),
    twoFactor: z.object({ enabled: z.boolean(), recoveryCodesLeft: z.number().int() }),
    liveSessions: z.number().int(),
  })
  .meta({ id: 'UserDetails', description: 'What an account signs in with, by kind; never a secret.' });

export const UserChange = z
  .object({
    user: UserView,
    changed: z.boolean().meta({ description: 'False when the account already was as asked' }),
    revokedSessions: z.number().int(),
  })
  .meta({ id: 'UserChange' });

const decision = z.object({ reviewer: z.string(), reason: z.string().optional(), decidedAt: z.string().meta({ format: 'date-time' }) });

export const ReviewView = z
  .discriminatedUnion('kind', [
    z.object({
      reviewId: z.string(),
      kind: z.literal('registration'),
      mode: z.enum(REGISTRATION_MODES),
      username: z.string(),
      state: z.enum(REVIEW_STATES),
      requestedAt: z.string().meta({ format: 'date-time' }),
      expiresAt: z.string().meta({ format: 'date-time' }),
      decision: decision.optional(),
      userId: z.string().optional().meta({ description: 'The account approval created' }),
      workflowUrl: z.string().optional().meta({ description: 'The review workflow in the Temporal UI (when temporal.ui_url is set)' }),
    }),
    z.object({
      reviewId: z.string(),
      kind: z.literal('room'),
      roomId: z.string(),
      roomName: z.string(),
      ownerId: z.string(),
      state: z.enum(REVIEW_STATES),
      requestedAt: z.string().meta({ format: 'date-time' }),
      expiresAt: z.string().meta({ format: 'date-time' }),
      decision: decision.optional(),
      workflowUrl: z.string().optional().meta({ description: 'The review workflow in the Temporal UI (when temporal.ui_url is set)' }),
    }),
  ])
  .meta({ id: 'Review', description: 'A review as its workflow answers; a signup review never shows the credentials it holds.' });

export const ReviewSummary = z
  .object({
    reviewId: z.string(),
    kind: z.enum(REVIEW_KINDS),
    mode: z.enum(REVIEW_MODES),
    subject: z.string().meta({ description: 'The username, or the room name' }),
    state: z.enum(REVIEW_STATES),
    startTime: z.string().meta({ format: 'date-time' }),
    status: z.string().meta({ description: 'The Temporal execution status: RUNNING, COMPLETED, ...' }),
    workflowUrl: z.string().optional().meta({ description: 'The review workflow in the Temporal UI (when temporal.ui_url is set)' }),
  })
  .meta({ id: 'ReviewSummary' });

/**
 * The users listing's cursor: base64url of the last username key of a page (its UTF-8). Every
 * string of this form is a position (accounts/user-directory.ts decodes whatever bytes it
 * holds), so the pattern is the whole rule and no cursor it admits is refused.
 */
export const ADMIN_USER_CURSOR = /^[A-Za-z0-9_-]{1,256}$/;

export const adminListUsers = defineEndpoint({
  method: 'get',
  path: '/api/admin/users',
  operationId: 'adminListUsers',
  summary: 'List accounts in username order, one page at a time',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({
    role: ServiceRole.optional(),
    state: z.enum(['active', 'banned']).optional(),
    q: oneLineText().min(1).max(32).optional().meta({ description: 'Usernames starting with this, case-insensitive' }),
    limit: z.coerce.number().int().min(1).max(200).optional().meta({ description: 'Page size, default 50' }),
    cursor: z
      .string()
      .regex(ADMIN_USER_CURSOR, { error: 'is not a cursor this listing returned' })
      .optional()
      .meta({ description: 'nextCursor of the previous page (base64url: the users after that position)' }),
  }),
  responses: {
    200: {
      description: 'One page; nextCursor is absent on the last',
      schema: z.object({ users: z.array(UserView), nextCursor: z.string().optional() }),
    },
  },
  errors: ['unauthenticated', 'forbidden'],
});

export const adminGetUser = defineEndpoint({
  method: 'get',
  path: '/api/admin/users/{userId}',
  operationId: 'adminGetUser',
  summary: 'One account, what it signs in with and how many sessions it has',
  tags: TAGS,
  access: 'admin',
  params: userParams,
  responses: { 200: { description: 'The account', schema: UserDetails } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const adminBanUser = defineEndpoint({
  method: 'post',
  path: '/api/admin/users/{userId}/ban',
  operationId: 'adminBanUser',
  summary: 'Ban an account; every session of it ends at once',
  description: 'An admin may ban accounts of role user; banning an administrator needs root. The last active root cannot be banned. The reason is logged with the caller.',
  tags: TAGS,
  access: 'admin',
  params: userParams,
  body: z.strictObject({ reason: reason.optional() }).optional(),
  responses: { 200: { description: 'Banned (or already banned)', schema: UserChange } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});

export const adminUnbanUser = defineEndpoint({
  method: 'post',
  path: '/api/admin/users/{userId}/unban',
  operationId: 'adminUnbanUser',
  summary: 'Lift a ban; the user may sign in again',
  tags: TAGS,
  access: 'admin',
  params: userParams,
  responses: { 200: { description: 'Unbanned (or was not banned)', schema: UserChange } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const adminSetUserRole = defineEndpoint({
  method: 'put',
  path: '/api/admin/users/{userId}/role',
  operationId: 'adminSetUserRole',
  summary: 'Set the service role of an account (root only)',
  description: 'Granting or removing admin or root is for a root alone, and not on their own account. The last active root cannot be demoted. Applies from the account\'s next request.',
  tags: TAGS,
  access: 'admin',
  params: userParams,
  body: z.strictObject({ role: ServiceRole }),
  responses: { 200: { description: 'The role now', schema: UserChange } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});

export const adminListReviews = defineEndpoint({
  method: 'get',
  path: '/api/admin/reviews',
  operationId: 'adminListReviews',
  summary: 'Signups and rooms under review (from Temporal visibility: a review started a moment ago may be missing)',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({
    kind: z.enum(REVIEW_KINDS).optional(),
    mode: z.enum(REVIEW_MODES).optional(),
    state: z.enum(REVIEW_STATES).optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional().meta({ description: 'Default 50' }),
  }),
  responses: { 200: { description: 'Matching reviews', schema: z.object({ reviews: z.array(ReviewSummary) }) } },
  errors: ['unauthenticated', 'forbidden', 'unavailable'],
});

export const adminGetReview = defineEndpoint({
  method: 'get',
  path: '/api/admin/reviews/{reviewId}',
  operationId: 'adminGetReview',
  summary: 'One review, as its workflow answers now',
  tags: TAGS,
  access: 'admin',
  params: reviewParams,
  responses: { 200: { description: 'The review', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable'],
});

export const adminApproveReview = defineEndpoint({
  method: 'post',
  path: '/api/admin/reviews/{reviewId}/approve',
  operationId: 'adminApproveReview',
  summary: 'Approve a signup (the account is created) or a room; the reviewer is user:<your username>',
  tags: TAGS,
  access: 'admin',
  params: reviewParams,
  body: z.strictObject({ reason: reason.optional() }).optional(),
  responses: { 200: { description: 'The review once the decision is recorded', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'deadline_exceeded'],
});

export const adminRejectReview = defineEndpoint({
  method: 'post',
  path: '/api/admin/reviews/{reviewId}/reject',
  operationId: 'adminRejectReview',
  summary: 'Reject a signup or a room, with a reason the requester is shown',
  tags: TAGS,
  access: 'admin',
  params: reviewParams,
  body: z.strictObject({ reason }),
  responses: { 200: { description: 'The review once the decision is recorded', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'deadline_exceeded'],
});
