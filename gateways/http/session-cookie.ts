import type { StartupConfig } from '../../config/index.js';
import { isLoopbackHost } from '../../net/index.js';
import type { HttpContext } from './state.js';

/**
 * Where a session's refresh token travels. Browsers get an httpOnly cookie scoped to the
 * auth paths, so page scripts (and an XSS) never read it; native clients, which say so with
 * `X-Svc-Client: native`, get it in the body and send it back in the body.
 */
export const REFRESH_COOKIE = 'svc_refresh';
const COOKIE_PATH = '/api/auth';
export const CLIENT_HEADER = 'X-Svc-Client';

export function isNativeClient(ctx: HttpContext): boolean {
  return ctx.get(CLIENT_HEADER).toLowerCase() === 'native';
}

export interface CookiePolicy {
  /** False only when the service is served over plain http on a loopback host (development). */
  secure: boolean;
}

/** Secure cookies everywhere except a plain-http loopback origin (a developer's machine). */
export function cookiePolicyFor(config: Pick<StartupConfig, 'server' | 'webauthn'>): CookiePolicy {
  const url = new URL(config.server.public_url || config.webauthn.rp_origin);
  return { secure: !(url.protocol === 'http:' && isLoopbackHost(url.hostname)) };
}

export function setRefreshCookie(ctx: HttpContext, policy: CookiePolicy, token: string, expiresAt: Date): void {
  trustPolicy(ctx, policy);
  ctx.cookies.set(REFRESH_COOKIE, token, { httpOnly: true, secure: policy.secure, sameSite: 'strict', path: COOKIE_PATH, expires: expiresAt, overwrite: true });
}

export function clearRefreshCookie(ctx: HttpContext, policy: CookiePolicy): void {
  trustPolicy(ctx, policy);
  ctx.cookies.set(REFRESH_COOKIE, '', { httpOnly: true, secure: policy.secure, sameSite: 'strict', path: COOKIE_PATH, expires: new Date(0), overwrite: true });
}

export function refreshCookie(ctx: HttpContext): string | undefined {
  return ctx.cookies.get(REFRESH_COOKIE) || undefined;
}

/**
 * The cookies library refuses a Secure cookie on a request it believes is plain http, which is
 * every request behind a TLS-terminating proxy; the configured origin decides instead.
 */
export function trustPolicy(ctx: HttpContext, policy: CookiePolicy): void {
  if (policy.secure) (ctx.cookies as unknown as { secure: boolean }).secure = true;
}
