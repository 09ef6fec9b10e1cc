import cors from '@koa/cors';
import type { Middleware, ParameterizedContext } from 'koa';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { checkBareOrigin } from '../../net/index.js';
import { REQUEST_ID_HEADER } from '../request-id.js';
import type { HttpState } from './state.js';

const ALLOWED_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const ALLOWED_HEADERS = ['content-type', 'authorization', 'x-request-id'];
/** How long a browser may reuse a preflight answer, in seconds. */
const PREFLIGHT_MAX_AGE_S = 600;

export function isPreflight(ctx: ParameterizedContext): boolean {
  return ctx.method === 'OPTIONS' && ctx.get('Origin') !== '' && ctx.get('Access-Control-Request-Method') !== '';
}

/**
 * CORS for the main API from the startup key `server.cors_allowed_origins`.
 *
 * An origin is allowed only by exact match, and then it is echoed back (never `*`, since
 * credentials are allowed). Any other origin, or none, gets no `Access-Control-Allow-Origin`
 * and the request carries on as if CORS did not exist, so the browser, not the server,
 * blocks the response. Preflights from allowed origins are answered here with 204 for any
 * path, before routing, so they work for routes whatever method they implement.
 */
export function corsPolicy(allowedOrigins: readonly string[]): Middleware<HttpState> {
  const allowed = new Set(validOrigins(allowedOrigins));
  const policy = cors({
    origin: (ctx) => {
      const origin = ctx.get('Origin');
      // '' tells @koa/cors to add no CORS headers at all.
      return allowed.has(origin) ? origin : '';
    },
    credentials: true,
    allowMethods: ALLOWED_METHODS,
    allowHeaders: ALLOWED_HEADERS,
    exposeHeaders: [REQUEST_ID_HEADER],
    maxAge: PREFLIGHT_MAX_AGE_S,
    // The error middleware runs inside this one and keeps these headers on error bodies.
    keepHeadersOnError: false,
  });
  // `/media/*` is governed by the runtime `cors.allowedOrigins` (gateways/media/media-cors.ts), not by this list.
  return async (ctx, next) => {
    if (ctx.path.startsWith('/media/')) await next();
    else await policy(ctx, next);
  };
}

// The config loader validates the list too; checking again here keeps a hand-built config
// (tests, embedding) from silently allowing nothing because of a trailing slash.
function validOrigins(origins: readonly string[]): string[] {
  const issues: FieldIssue[] = [];
  const valid: string[] = [];
  origins.forEach((text, index) => {
    const check = checkBareOrigin(text);
    if (check.ok) valid.push(check.origin);
    else issues.push({ key: `server.cors_allowed_origins[${index}]`, message: check.message });
  });
  if (issues.length > 0) throw AppError.invalid(issues);
  return valid;
}
