import { FLOW_TTL_SECONDS } from '../../accounts/index.js';
import { trustPolicy, type CookiePolicy } from './session-cookie.js';
import type { HttpContext } from './state.js';

/**
 * The browser's side of an OAuth2 flow's client binding (accounts/methods/oauth2/flow-state.ts):
 * an httpOnly cookie scoped to the callback paths, so page scripts never read it and it only
 * travels with OAuth2 requests. It lives as long as a flow; every start renews it with the same
 * value, so flows started in two tabs both finish.
 */
export const OAUTH2_COOKIE = 'svc_oauth2';
const COOKIE_PATH = '/api/auth/oauth2';

export function oauth2BindingCookie(ctx: HttpContext): string | undefined {
  return ctx.cookies.get(OAUTH2_COOKIE) || undefined;
}

export function setOAuth2BindingCookie(ctx: HttpContext, policy: CookiePolicy, value: string): void {
  trustPolicy(ctx, policy);
  ctx.cookies.set(OAUTH2_COOKIE, value, {
    httpOnly: true,
    secure: policy.secure,
    sameSite: 'strict',
    path: COOKIE_PATH,
    maxAge: FLOW_TTL_SECONDS * 1000,
    overwrite: true,
  });
}
