import type { Accounts } from '../../../accounts/index.js';
import * as api from '../../../contracts/http/two-factor.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { CookiePolicy } from '../session-cookie.js';
import { clientOf, sessionBody } from './auth.js';

/** Two-factor endpoints of `api/two-factor.ts`, over the accounts module's TOTP method. */
export function mountTwoFactorRoutes(router: EndpointRouter, accounts: Accounts, cookies: CookiePolicy): void {
  router
    .mount(api.totpSetup, async (ctx, { caller }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.totp.setup({ id: caller.userId, username: caller.username });
    })
    .mount(api.totpEnable, async (ctx, { caller, body }) => {
      ctx.set('Cache-Control', 'no-store');
      // A token thief who turned it on would hold the only authenticator: the owner locked out.
      await accounts.recentSignIn.prove(caller, body, clientOf(ctx), 'turn on two-factor authentication');
      ctx.body = await accounts.totp.enable(caller.userId, body.code, clientOf(ctx));
    })
    .mount(api.twoFactorDisable, async (ctx, { caller, body }) => {
      await accounts.totp.disable(caller.userId, body.code, clientOf(ctx));
      ctx.status = 204;
    })
    .mount(api.twoFactorVerify, async (ctx, { body }) => {
      const signedIn = await accounts.totp.verifyChallenge(body, clientOf(ctx));
      ctx.body = sessionBody(ctx, cookies, signedIn);
    })
    .mount(api.regenerateRecoveryCodes, async (ctx, { caller, body }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.totp.regenerateRecoveryCodes(caller.userId, body.code, clientOf(ctx));
    });
}

