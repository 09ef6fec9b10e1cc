import type { Accounts } from '../../../accounts/index.js';
import type { StartRequest } from '../../../accounts/index.js';
import * as api from '../../../contracts/http/oauth2.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { oauth2BindingCookie, setOAuth2BindingCookie } from '../oauth2-binding-cookie.js';
import { isNativeClient, type CookiePolicy } from '../session-cookie.js';
import type { HttpContext } from '../state.js';
import { clientOf, sessionBody } from './auth.js';

/** OAuth2 / OIDC endpoints of `api/oauth2.ts`, over the accounts module's OAuth2 method. */
export function mountOAuth2Routes(router: EndpointRouter, accounts: Accounts, cookies: CookiePolicy): void {
  /** Starts a flow; browsers keep its binding in the cookie, native clients get it in the answer. */
  const start = async (ctx: HttpContext, instance: string, request: StartRequest): Promise<string> => {
    const native = isNativeClient(ctx);
    const presented = native ? undefined : oauth2BindingCookie(ctx);
    const started = await accounts.oauth2.start(instance, request, { ...clientOf(ctx), ...(presented ? { clientBinding: presented } : {}) });
    ctx.set('Cache-Control', 'no-store');
    if (native) {
      ctx.body = { authorizationUrl: started.authorizationUrl, clientBinding: started.clientBinding };
    } else {
      setOAuth2BindingCookie(ctx, cookies, started.clientBinding);
      ctx.body = { authorizationUrl: started.authorizationUrl };
    }
    return started.authorizationUrl;
  };

  router
    .mount(api.listOAuth2Providers, (ctx) => {
      ctx.body = { providers: accounts.oauth2.providers() };
    })
    .mount(api.oauth2Authorize, async (ctx, { params }) => {
      await start(ctx, params.instance, { purpose: 'login' });
    })
    .mount(api.oauth2AuthorizeRedirect, async (ctx, { params }) => {
      ctx.redirect(await start(ctx, params.instance, { purpose: 'login' }));
    })
    .mount(api.oauth2BindAuthorize, async (ctx, { params, caller, body }) => {
      // Proved at the start: the callback finishes only a flow this start created for this user.
      await accounts.recentSignIn.prove(caller, body ?? {}, clientOf(ctx), 'bind an OAuth2 identity');
      await start(ctx, params.instance, { purpose: 'bind', userId: caller.userId });
    })
    .mount(api.oauth2Callback, async (ctx, { params, body, caller }) => {
      const outcome = await accounts.oauth2.finish(
        params.instance,
        {
          state: body.state,
          ...(body.code !== undefined ? { code: body.code } : {}),
          ...(body.iss !== undefined ? { iss: body.iss } : {}),
          ...(body.error !== undefined ? { error: body.error } : {}),
          ...(body.error_description !== undefined ? { errorDescription: body.error_description } : {}),
        },
        {
          ...(body.clientBinding !== undefined ? { clientBinding: body.clientBinding } : isNativeClient(ctx) ? {} : cookieBinding(ctx)),
          ...(caller ? { caller } : {}),
          client: clientOf(ctx),
        },
      );
      switch (outcome.kind) {
        case 'pending_review':
          ctx.status = 202;
          ctx.body = { status: 'pending_review', reviewId: outcome.reviewId };
          return;
        case 'bound':
          ctx.body = { status: 'bound', binding: bindingView({ ...outcome.binding, configured: true }) };
          return;
        case 'signed_in':
          if (outcome.result.status !== 'signed_in') {
            ctx.body = outcome.result;
            return;
          }
          ctx.status = outcome.created ? 201 : 200;
          ctx.body = sessionBody(ctx, cookies, outcome.result);
      }
    })
    .mount(api.listOAuth2Bindings, async (ctx, { caller }) => {
      const bindings = await accounts.oauth2.listBindings(caller.userId);
      ctx.body = { bindings: bindings.map(bindingView) };
    })
    .mount(api.oauth2Unbind, async (ctx, { params, caller }) => {
      await accounts.oauth2.unbind(caller.userId, params.instance);
      ctx.status = 204;
    });
}

function cookieBinding(ctx: HttpContext): { clientBinding?: string } {
  const value = oauth2BindingCookie(ctx);
  return value ? { clientBinding: value } : {};
}

function bindingView(binding: { instanceName: string; configured: boolean; createdAt: Date; lastLoginAt: Date | null }): Record<string, unknown> {
  return {
    instanceName: binding.instanceName,
    configured: binding.configured,
    createdAt: binding.createdAt.toISOString(),
    lastLoginAt: binding.lastLoginAt?.toISOString() ?? null,
  };
}

