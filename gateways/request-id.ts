import { randomUUID } from 'node:crypto';
import type { Middleware } from 'koa';
import type { Logger } from '../observability/index.js';
import type { HttpState } from './http/state.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

// A caller-chosen id ends up in our logs and response headers, so only short plain tokens
// are trusted; anything else (spaces, control characters, huge values) is replaced.
const SANE_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export function isSaneRequestId(value: string): boolean {
  return SANE_REQUEST_ID.test(value);
}

/**
 * Outermost middleware: gives every request an id (the caller's, when sane, so one id can
 * follow a request across a proxy and several services) and a logger bound to it.
 */
export function requestId(logger: Logger): Middleware<HttpState> {
  return async (ctx, next) => {
    const incoming = ctx.get(REQUEST_ID_HEADER);
    const id = incoming && isSaneRequestId(incoming) ? incoming : randomUUID();
    ctx.state.requestId = id;
    ctx.state.log = logger.child({ requestId: id });
    ctx.set(REQUEST_ID_HEADER, id);
    await next();
  };
}
