/**
 * Service administration (`/api/admin/...`): accounts and the review queues. Service admins
 * (`admin`, `root`) only; the role is read again on every request, so a demoted admin loses
 * access at once. A leaf module (zod and the error codes only).
 */
import { z } from 'zod';
import { ServiceRole, UserView } from './common.js';
import { defineEndpoint } from './endpoint.js';

const TAGS = ['admin'];
const userId = z.strictObject({ userId: z.string().min(1).max(64) });
const reviewId = z.strictObject({ reviewId: z.string().min(1).max(300) });
const reason = z.string().trim().min(1).max(1000);

const Decision = z.object({ reviewer: z.string(), reason: z.string().optional(), decidedAt: z.string().meta({ format: 'date-time' }) });
const ReviewView = z
  .object({
    reviewId: z.string(),
    kind: z.enum(['registration', 'room']),
    state: z.enum(['pending', 'approved', 'rejected', 'expired']),
    mode: z.string().optional().meta({ description: 'registration: password, email, webauthn or oauth2' }),
    username: z.string().optional(),
    roomId: z.string().optional(),
    roomName: z.string().optional(),
    ownerId: z.string().optional(),
    userId: z.string().optional().meta({ description: 'the account an approved signup created' }),
    requestedAt: z.string().meta({ format: 'date-time' }),
    expiresAt: z.string().meta({ format: 'date-time' }),
    decision: Decision.optional(),
  })
  .meta({ id: 'Review', description: 'A signup or room under review; never the sealed credentials' });
const ReviewSummary = z
  .object({
    reviewId: z.string(),
    kind: z.enum(['registration', 'room']),
    mode: z.string(),
    subject: z.string(),
    state: z.enum(['pending', 'approved', 'rejected', 'expired']),
    startTime: z.string().meta({ format: 'date-time' }),
    status: z.string(),
  })
  .meta({ id: 'ReviewSummary' });
const UserDetails = UserView.extend({
  credentials: z.object({ password: z.enum(['opaque', 'argon2']).nullable(), passkeys: z.number().int(), oauth2: z.array(z.string()), totp: z.boolean() }),
  activeSessions: z.number().int(),
}).meta({ id: 'UserDetails' });

export const adminListUsers = defineEndpoint({
  method: 'get',
  path: '/api/admin/users',
  operationId: 'adminListUsers',
  summary: 'Accounts in username order, with keyset paging',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({
    role: ServiceRole.optional(),
    state: z.enum(['active', 'banned']).optional(),
    prefix: z.string().min(1).max(64).optional(),
    after: z.string().min(1).max(128).optional().meta({ description: 'the `next` of the previous page' }),
    limit: z.coerce.number().int().min(1).max(500).default(100),
  }),
  responses: { 200: { description: 'One page', schema: z.object({ users: z.array(UserView), next: z.string().optional() }) } },
  errors: ['unauthenticated', 'forbidden'],
});

export const adminGetUser = defineEndpoint({
  method: 'get',
  path: '/api/admin/users/{userId}',
  operationId: 'adminGetUser',
  summary: 'One account with the kinds of credentials it has (never a secret)',
  tags: TAGS,
  access: 'admin',
  params: userId,
  responses: { 200: { description: 'The account', schema: UserDetails } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const adminBanUser = defineEndpoint({
  method: 'post',
  path: '/api/admin/users/{userId}/ban',
  operationId: 'adminBanUser',
  summary: 'Ban an account; its sessions end at once',
  description: 'Admins ban users; banning an admin takes root. Root accounts are demoted before they can be banned.',
  tags: TAGS,
  access: 'admin',
  params: userId,
  responses: { 200: { description: 'Banned', schema: z.object({ user: UserView, revokedSessions: z.number().int() }) } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});

export const adminUnbanUser = defineEndpoint({
  method: 'post',
  path: '/api/admin/users/{userId}/unban',
  operationId: 'adminUnbanUser',
  summary: 'Lift a ban',
  tags: TAGS,
  access: 'admin',
  params: userId,
  responses: { 200: { description: 'Active again', schema: UserView } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const adminSetUserRole = defineEndpoint({
  method: 'put',
  path: '/api/admin/users/{userId}/role',
  operationId: 'adminSetUserRole',
  summary: 'Set the service role (root only); the last root keeps its role',
  tags: TAGS,
  access: 'admin',
  params: userId,
  body: z.strictObject({ role: ServiceRole }),
  responses: { 200: { description: 'The account with its new role', schema: UserView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
});

export const adminListReviews = defineEndpoint({
  method: 'get',
  path: '/api/admin/reviews',
  operationId: 'adminListReviews',
  summary: 'Signups and rooms under review (from Temporal visibility, which lags a moment)',
  tags: TAGS,
  access: 'admin',
  query: z.strictObject({
    kind: z.enum(['registration', 'room']).optional(),
    mode: z.enum(['password', 'email', 'webauthn', 'oauth2', 'room']).optional(),
    state: z.enum(['pending', 'approved', 'rejected', 'expired']).optional(),
    limit: z.coerce.number().int().min(1).max(1000).default(50),
  }),
  responses: { 200: { description: 'Matching reviews', schema: z.object({ reviews: z.array(ReviewSummary) }) } },
  errors: ['unauthenticated', 'forbidden', 'unavailable'],
});

export const adminGetReview = defineEndpoint({
  method: 'get',
  path: '/api/admin/reviews/{reviewId}',
  operationId: 'adminGetReview',
  summary: 'One review, as its workflow answers the `request` query',
  tags: TAGS,
  access: 'admin',
  params: reviewId,
  responses: { 200: { description: 'The review', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable'],
});

export const adminApproveReview = defineEndpoint({
  method: 'post',
  path: '/api/admin/reviews/{reviewId}/approve',
  operationId: 'adminApproveReview',
  summary: 'Approve a signup or a room; you are recorded as the reviewer',
  tags: TAGS,
  access: 'admin',
  params: reviewId,
  body: z.strictObject({ reason: reason.optional() }).optional(),
  responses: { 200: { description: 'The decided review', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'deadline_exceeded'],
});

export const adminRejectReview = defineEndpoint({
  method: 'post',
  path: '/api/admin/reviews/{reviewId}/reject',
  operationId: 'adminRejectReview',
  summary: 'Reject a signup or a room with a reason the requester sees',
  tags: TAGS,
  access: 'admin',
  params: reviewId,
  body: z.strictObject({ reason }),
  responses: { 200: { description: 'The decided review', schema: ReviewView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'deadline_exceeded'],
});
