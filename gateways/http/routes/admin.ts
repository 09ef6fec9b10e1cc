import type { Accounts } from '../../../accounts/index.js';
import { logAdminAction } from '../../../accounts/index.js';
import type { AdminActor } from '../../../accounts/index.js';
import type { UserCaller } from '../../../accounts/index.js';
import type { UserChange } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import type { ReviewClient } from '../../../workflows/index.js';
import type { ReviewLink } from '../../../workflows/index.js';
import * as api from '../../../contracts/http/admin.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { userView } from '../views.js';

const DEFAULT_REVIEW_LIMIT = 50;
const DEFAULT_USER_PAGE = 50;

/**
 * The admin endpoints of `api/admin.ts`: accounts through `UserAdmin` (which applies
 * accounts/admin-policy.ts), reviews through the `ReviewClient` with `user:<username>` as the
 * reviewer, as `svc review` uses `cli:<user>@<host>`.
 */
export function mountAdminRoutes(router: EndpointRouter, accounts: Accounts, reviews: ReviewClient | undefined, link: ReviewLink = () => undefined): void {
  const linked = <T extends { reviewId: string }>(review: T): T & { workflowUrl?: string } => {
    const workflowUrl = link(review.reviewId);
    return workflowUrl === undefined ? review : { ...review, workflowUrl };
  };
  const client = (): ReviewClient => {
    if (reviews) return reviews;
    throw new AppError('unavailable', 'review workflows need Temporal; this gateway was started without a review client');
  };
  const changeView = (change: UserChange): Record<string, unknown> => ({ ...change, user: userView(change.user) });

  router
    .mount(api.adminListUsers, async (ctx, { query }) => {
      const page = await accounts.admin.list({
        limit: query.limit ?? DEFAULT_USER_PAGE,
        ...(query.role ? { role: query.role } : {}),
        ...(query.state ? { state: query.state } : {}),
        ...(query.q ? { prefix: query.q } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      });
      ctx.body = { users: page.users.map(userView), ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
    })
    .mount(api.adminGetUser, async (ctx, { params }) => {
      const details = await accounts.admin.show(params.userId);
      ctx.body = { ...details, user: userView(details.user) };
    })
    .mount(api.adminBanUser, async (ctx, { caller, params, body }) => {
      const actor = adminActor(caller);
      const change = await accounts.admin.ban(actor, params.userId);
      logAdminAction(ctx.state.log, 'user.ban', actor, change.user, { reason: body?.reason ?? null, changed: change.changed, revokedSessions: change.revokedSessions });
      ctx.body = changeView(change);
    })
    .mount(api.adminUnbanUser, async (ctx, { caller, params }) => {
      const actor = adminActor(caller);
      const change = await accounts.admin.unban(actor, params.userId);
      logAdminAction(ctx.state.log, 'user.unban', actor, change.user, { changed: change.changed });
      ctx.body = changeView(change);
    })
    .mount(api.adminSetUserRole, async (ctx, { caller, params, body }) => {
      const actor = adminActor(caller);
      const change = await accounts.admin.setRole(actor, params.userId, body.role);
      logAdminAction(ctx.state.log, 'user.set-role', actor, change.user, { role: change.user.role, changed: change.changed });
      ctx.body = changeView(change);
    })
    .mount(api.adminListReviews, async (ctx, { query }) => {
      const { limit, kind, mode, state } = query;
      ctx.body = {
        reviews: (await client().list({ limit: limit ?? DEFAULT_REVIEW_LIMIT, ...(kind ? { kind } : {}), ...(mode ? { mode } : {}), ...(state ? { state } : {}) })).map(linked),
      };
    })
    .mount(api.adminGetReview, async (ctx, { params }) => {
      ctx.body = linked(await client().show(params.reviewId));
    })
    .mount(api.adminApproveReview, async (ctx, { caller, params, body }) => {
      const reason = body?.reason;
      ctx.body = linked(await client().approve(params.reviewId, { reviewer: reviewerOf(caller), ...(reason !== undefined ? { reason } : {}) }));
    })
    .mount(api.adminRejectReview, async (ctx, { caller, params, body }) => {
      ctx.body = linked(await client().reject(params.reviewId, { reviewer: reviewerOf(caller), reason: body.reason }));
    });
}

function adminActor(caller: UserCaller): AdminActor & { kind: 'user' } {
  return { kind: 'user', userId: caller.userId, name: reviewerOf(caller) };
}

function reviewerOf(caller: UserCaller): string {
  return `user:${caller.username}`;
}
