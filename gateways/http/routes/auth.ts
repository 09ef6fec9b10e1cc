import type { Accounts } from '../../../accounts/index.js';
import type { SignupOutcome } from '../../../accounts/index.js';
import type { ClientInfo, GuestSignedIn, SignedIn, SignInResult } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import * as api from '../../../contracts/http/auth.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { clearRefreshCookie, isNativeClient, refreshCookie, setRefreshCookie, type CookiePolicy } from '../session-cookie.js';
import type { HttpContext } from '../state.js';
import { userView } from '../views.js';

/** A sign-in's answer: the session (cookie or body), or the second-factor challenge. */
export function answerSignInWith(ctx: HttpContext, cookies: CookiePolicy, result: SignInResult | GuestSignedIn, status = 200): void {
  if (result.status !== 'signed_in') {
    ctx.status = 200;
    ctx.body = result;
    return;
  }
  ctx.status = status;
  ctx.body = sessionBody(ctx, cookies, result);
}

/** A signup's answer: 201 signed in (a second factor cannot exist yet), or 202 pending review. */
export async function answerSignupWith(ctx: HttpContext, accounts: Accounts, cookies: CookiePolicy, outcome: SignupOutcome): Promise<void> {
  if (outcome.kind === 'pending_review') {
    ctx.status = 202;
    ctx.body = { status: 'pending_review', reviewId: outcome.reviewId };
    return;
  }
  answerSignInWith(ctx, cookies, await accounts.signIn.complete(outcome.user, 'signup', clientOf(ctx)), 201);
}

/** Sign-in, signup and session endpoints of `api/auth.ts`, over the accounts module. */
export function mountAuthRoutes(router: EndpointRouter, accounts: Accounts, cookies: CookiePolicy): void {
  const answerSignIn = (ctx: HttpContext, result: SignInResult | GuestSignedIn, status = 200): void => answerSignInWith(ctx, cookies, result, status);
  const answerSignup = (ctx: HttpContext, outcome: SignupOutcome): Promise<void> => answerSignupWith(ctx, accounts, cookies, outcome);

  router
    .mount(api.opaqueRegisterStart, async (ctx, { body }) => {
      ctx.body = await accounts.opaque.registerStart(body, clientOf(ctx));
    })
    .mount(api.opaqueRegisterFinish, async (ctx, { body }) => {
      await answerSignup(ctx, await accounts.opaque.registerFinish(body));
    })
    .mount(api.opaqueLoginStart, async (ctx, { body }) => {
      ctx.body = await accounts.opaque.loginStart(body, clientOf(ctx));
    })
    .mount(api.opaqueLoginFinish, async (ctx, { body }) => {
      answerSignIn(ctx, await accounts.opaque.loginFinish(body, clientOf(ctx)));
    })
    .mount(api.passwordRegister, async (ctx, { body }) => {
      await answerSignup(ctx, await accounts.password.register(body, clientOf(ctx)));
    })
    .mount(api.passwordLogin, async (ctx, { body }) => {
      answerSignIn(ctx, await accounts.password.login(body, clientOf(ctx)));
    })
    .mount(api.guestSignIn, async (ctx, { body }) => {
      if (!accounts.deps.settings.get('user.enableGuest')) throw new AppError('forbidden', 'guest access is disabled on this server (runtime setting user.enableGuest)');
      await accounts.limits.consume('signUpPerIp', clientOf(ctx).ip, 'new sessions from this address');
      answerSignIn(ctx, await accounts.signIn.guest(body.displayName.trim(), clientOf(ctx)));
    })
    .mount(api.refreshSession, async (ctx, { body }) => {
      const token = body?.refreshToken ?? refreshCookie(ctx);
      if (!token) throw new AppError('unauthenticated', 'no refresh token: send the svc_refresh cookie or, for native clients, refreshToken in the body');
      let refreshed;
      try {
        refreshed = await accounts.signIn.refresh(token);
      } catch (err) {
        if (!isNativeClient(ctx)) clearRefreshCookie(ctx, cookies);
        throw err;
      }
      ctx.body = sessionBody(ctx, cookies, { ...refreshed, status: 'signed_in' });
    })
    .mount(api.logout, async (ctx, { caller }) => {
      await accounts.sessions.revoke(caller.sessionId, 'logout', 'logout');
      clearRefreshCookie(ctx, cookies);
      ctx.status = 204;
    })
    .mount(api.listSessions, async (ctx, { caller }) => {
      const sessions = await accounts.sessions.list(caller.userId);
      ctx.body = {
        sessions: sessions.map((session) => ({
          id: session.id,
          method: session.method,
          userAgent: session.userAgent,
          ip: session.ip,
          createdAt: session.createdAt.toISOString(),
          lastUsedAt: session.lastUsedAt.toISOString(),
          expiresAt: session.expiresAt.toISOString(),
          current: session.id === caller.sessionId,
        })),
      };
    })
    .mount(api.revokeSession, async (ctx, { caller, params }) => {
      const revoked = await accounts.sessions.revoke(params.sessionId, 'revoked by user', 'revoked', caller.userId);
      if (!revoked) throw new AppError('not_found', `no live session ${params.sessionId} of yours`);
      ctx.status = 204;
    })
    .mount(api.logoutEverywhere, async (ctx, { caller }) => {
      const revoked = await accounts.sessions.revokeAll(accounts.deps.pool, caller.userId, 'logout everywhere');
      accounts.sessions.announce({ scope: 'user', userId: caller.userId, reason: 'logout_everywhere' });
      clearRefreshCookie(ctx, cookies);
      ctx.body = { revoked };
    });
}

/** The address and browser of a request, for rate limits and the session list. */
export function clientOf(ctx: HttpContext): Required<Pick<ClientInfo, 'ip'>> & ClientInfo {
  const userAgent = ctx.get('User-Agent');
  return { ip: ctx.ip || 'unknown', ...(userAgent ? { userAgent } : {}) };
}

type SessionLike = Pick<SignedIn, 'status' | 'sessionId' | 'accessToken' | 'expiresIn' | 'refreshToken' | 'refreshExpiresAt'> & Partial<Pick<SignedIn, 'user'>> & Partial<Pick<GuestSignedIn, 'guest'>>;

/** The body of every answer that opens a session; sets the refresh cookie for browsers. */
export function sessionBody(ctx: HttpContext, cookies: CookiePolicy, session: SessionLike): Record<string, unknown> {
  const native = isNativeClient(ctx);
  if (!native) setRefreshCookie(ctx, cookies, session.refreshToken, session.refreshExpiresAt);
  ctx.set('Cache-Control', 'no-store');
  return {
    status: 'signed_in',
    accessToken: session.accessToken,
    tokenType: 'Bearer',
    expiresIn: session.expiresIn,
    ...(native ? { refreshToken: session.refreshToken } : {}),
    sessionId: session.sessionId,
    ...(session.user ? { user: userView(session.user) } : {}),
    ...(session.guest ? { guest: session.guest } : {}),
  };
}
