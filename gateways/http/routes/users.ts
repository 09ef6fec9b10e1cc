import type { Accounts } from '../../../accounts/accounts.js';
import { updateDisplayName } from '../../../accounts/profile.js';
import { describeUser } from '../../../accounts/user-directory.js';
import { findUserById } from '../../../accounts/users.js';
import { AppError } from '../../../errors/app-error.js';
import * as api from '../../../contracts/http/users.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { userView } from '../views.js';
import { clientOf } from './auth.js';

export function mountUserRoutes(router: EndpointRouter, accounts: Accounts): void {
  router.mount(api.getMe, async (ctx, { caller }) => {
    if (caller.kind === 'guest') {
      ctx.body = { guest: { id: caller.guestId, displayName: caller.displayName } };
      return;
    }
    const user = await findUserById(accounts.deps.pool, caller.userId);
    if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
    ctx.body = { user: userView(user) };
  })
    .mount(api.changePasswordOpaque, async (ctx, { caller, body }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.passwordChange.opaqueStart(caller, body.registrationRequest);
    })
    .mount(api.changePassword, async (ctx, { caller, body }) => {
      ctx.body = await accounts.passwordChange.change(caller, body, clientOf(ctx));
    })
    .mount(api.updateMe, async (ctx, { caller, body }) => {
      ctx.body = { user: userView(await updateDisplayName(accounts.deps.pool, caller.userId, body.displayName)) };
    })
    .mount(api.getMyCredentials, async (ctx, { caller }) => {
      const user = await findUserById(accounts.deps.pool, caller.userId);
      if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
      const details = await describeUser(accounts.deps.pool, user);
      ctx.set('Cache-Control', 'no-store');
      ctx.body = { ...details.credentials, twoFactor: details.twoFactor, liveSessions: details.liveSessions };
    });
}

