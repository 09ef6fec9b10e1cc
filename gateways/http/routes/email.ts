import type { Accounts } from '../../../accounts/index.js';
import * as api from '../../../contracts/http/email.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { CookiePolicy } from '../session-cookie.js';
import { answerSignupWith, clientOf } from './auth.js';

/** Email signup and password reset endpoints of `api/email.ts`. */
export function mountEmailRoutes(router: EndpointRouter, accounts: Accounts, cookies: CookiePolicy): void {
  router
    .mount(api.emailSignupStart, async (ctx, { body }) => {
      ctx.status = 202;
      ctx.body = await accounts.emailSignup.start(body, clientOf(ctx));
    })
    .mount(api.emailSignupOpaque, async (ctx, { body }) => {
      ctx.body = await accounts.emailSignup.opaqueStart(body, clientOf(ctx));
    })
    .mount(api.emailSignupConfirm, async (ctx, { body }) => {
      await answerSignupWith(ctx, accounts, cookies, await accounts.emailSignup.confirm(body, clientOf(ctx)));
    })
    .mount(api.passwordResetStart, async (ctx, { body }) => {
      ctx.status = 202;
      ctx.body = await accounts.passwordReset.start(body, clientOf(ctx));
    })
    .mount(api.passwordResetOpaque, async (ctx, { body }) => {
      ctx.body = await accounts.passwordReset.opaqueStart(body, clientOf(ctx));
    })
    .mount(api.passwordResetFinish, async (ctx, { body }) => {
      await accounts.passwordReset.finish(body, clientOf(ctx));
      ctx.status = 204;
    });
}

