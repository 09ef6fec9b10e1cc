import type { Accounts } from '../../../accounts/index.js';
import type { StoredPasskey } from '../../../accounts/index.js';
import type { SignInResult } from '../../../accounts/index.js';
import * as api from '../../../contracts/http/webauthn.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { CookiePolicy } from '../session-cookie.js';
import type { HttpContext } from '../state.js';
import { clientOf, sessionBody } from './auth.js';

/** Passkey endpoints of `api/webauthn.ts`, over the accounts module's WebAuthn method. */
export function mountWebAuthnRoutes(router: EndpointRouter, accounts: Accounts, cookies: CookiePolicy): void {
  const answerSignIn = (ctx: HttpContext, result: SignInResult, status: number): void => {
    ctx.set('Cache-Control', 'no-store');
    if (result.status === 'second_factor_required') {
      ctx.status = 200;
      ctx.body = result;
      return;
    }
    ctx.status = status;
    ctx.body = sessionBody(ctx, cookies, result);
  };

  router
    .mount(api.webauthnRegisterOptions, async (ctx, { body }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.webauthn.signupOptions(body, clientOf(ctx));
    })
    .mount(api.webauthnRegisterVerify, async (ctx, { body }) => {
      const outcome = await accounts.webauthn.signupVerify(body);
      if (outcome.kind === 'pending_review') {
        ctx.status = 202;
        ctx.body = { status: 'pending_review', reviewId: outcome.reviewId };
        return;
      }
      answerSignIn(ctx, await accounts.signIn.complete(outcome.user, 'signup', clientOf(ctx)), 201);
    })
    .mount(api.webauthnLoginOptions, async (ctx, { body }) => {
      ctx.set('Cache-Control', 'no-store');
      ctx.body = await accounts.webauthn.loginOptions(body ?? {}, clientOf(ctx));
    })
    .mount(api.webauthnLoginVerify, async (ctx, { body }) => {
      answerSignIn(ctx, await accounts.webauthn.loginVerify(body, clientOf(ctx)), 200);
    })
    .mount(api.passkeyBindOptions, async (ctx, { caller, body }) => {
      ctx.set('Cache-Control', 'no-store');
      // Proved here, at the start: the verify step needs the challenge only this answer gives.
      await accounts.recentSignIn.prove(caller, body ?? {}, clientOf(ctx), 'add a passkey');
      ctx.body = await accounts.webauthn.bindOptions({ id: caller.userId, username: caller.username, displayName: caller.displayName });
    })
    .mount(api.bindPasskey, async (ctx, { caller, body }) => {
      const passkey = await accounts.webauthn.bind(caller.userId, body);
      ctx.status = 201;
      ctx.body = passkeyView(passkey);
    })
    .mount(api.listPasskeys, async (ctx, { caller }) => {
      const passkeys = await accounts.webauthn.list(caller.userId);
      ctx.body = { passkeys: passkeys.map(passkeyView) };
    })
    .mount(api.deletePasskey, async (ctx, { caller, params }) => {
      await accounts.webauthn.remove(caller.userId, params.id);
      ctx.status = 204;
    });
}

/** How a passkey is shown over the API (schema `Passkey`); its public key stays on the server. */
function passkeyView(passkey: StoredPasskey): Record<string, unknown> {
  return {
    id: passkey.id,
    name: passkey.name,
    transports: passkey.transports,
    createdAt: passkey.createdAt.toISOString(),
    lastUsedAt: passkey.lastUsedAt?.toISOString() ?? null,
  };
}

