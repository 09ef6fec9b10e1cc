import type { Accounts } from '../../../accounts/accounts.js';
import type { Caller } from '../../../accounts/model.js';
import { isUuid } from '../../../accounts/users.js';
import { AppError } from '../../../errors/app-error.js';
import type { ReviewClient } from '../../../workflows/review-client.js';
import * as api from '../api/admin.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { userView } from '../views.js';

/**
 * Admin endpoints of `api/admin.ts`. The router has already refused non-admins. Beyond that:
 * only root changes roles or bans an admin, so one admin cannot take the service from others.
 */
export function mountAdminRoutes(router: EndpointRouter, accounts: Accounts, reviews: ReviewClient | undefined): void {
  const queue = (): ReviewClient => {
    if (reviews) return reviews;
    throw new AppError('unavailable', 'review workflows need Temporal, which this gateway was started without');
  };
  const reviewer = (caller: Caller): string => (caller.kind === 'user' ? `user:${caller.username}` : 'unknown');

  router
    .mount(api.adminListUsers, async (ctx, { query }) => {
      const page = await accounts.users.list(query);
      ctx.body = { users: page.users.map(userView), ...(page.next ? { next: page.next } : {}) };
    })
    .mount(api.adminGetUser, async (ctx, { params }) => {
      const user = await accounts.users.show(existingId(params.userId));
      ctx.body = { ...userView(user), credentials: user.credentials, activeSessions: user.activeSessions };
    })
    .mount(api.adminBanUser, async (ctx, { caller, params }) => {
      const target = await accounts.users.find(existingId(params.userId));
      if (target.role !== 'user' && !isRoot(caller)) throw new AppError('forbidden', 'banning an admin takes a root account');
      const { user, revokedSessions } = await accounts.users.ban(target.id);
      ctx.body = { user: userView(user), revokedSessions };
    })
    .mount(api.adminUnbanUser, async (ctx, { params }) => {
      ctx.body = userView(await accounts.users.unban(existingId(params.userId)));
    })
    .mount(api.adminSetUserRole, async (ctx, { caller, params, body }) => {
      if (!isRoot(caller)) throw new AppError('forbidden', 'changing service roles takes a root account');
      ctx.body = userView(await accounts.users.setRole(existingId(params.userId), body.role));
    })
    .mount(api.adminListReviews, async (ctx, { query }) => {
      ctx.body = { reviews: await queue().list(query) };
    })
    .mount(api.adminGetReview, async (ctx, { params }) => {
      ctx.body = await queue().show(params.reviewId);
    })
    .mount(api.adminApproveReview, async (ctx, { caller, params, body }) => {
      ctx.body = await queue().approve(params.reviewId, { reviewer: reviewer(caller), ...(body?.reason ? { reason: body.reason } : {}) });
    })
    .mount(api.adminRejectReview, async (ctx, { caller, params, body }) => {
      ctx.body = await queue().reject(params.reviewId, { reviewer: reviewer(caller), reason: body.reason });
    });
}

function isRoot(caller: Caller): boolean {
  return caller.kind === 'user' && caller.role === 'root';
}

/** Admin paths name accounts by id only: a username there could be confused with an id. */
function existingId(userId: string): string {
  if (!isUuid(userId)) throw new AppError('not_found', `no user ${userId}`);
  return userId;
}
