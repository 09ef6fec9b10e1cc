/**
 * Sets `ctx.ip` to the client address of `net/client-address.ts` before anything reads it.
 * Koa's own `proxy` handling takes the left-most X-Forwarded-For entry, which the client
 * writes itself, so it is never what the address comes from. Koa also believes
 * X-Forwarded-Proto and -Host from any peer once `proxy` is on; a request that did not come
 * from a trusted proxy has them dropped, so `ctx.protocol` and `ctx.host` (publish URLs, links)
 * are the connection's own.
 */
import type { Middleware } from 'koa';
import type { ClientAddresses } from '../../net/index.js';
import type { HttpState } from './state.js';

const FORWARDED_URL_HEADERS = ['x-forwarded-proto', 'x-forwarded-host'];

export function clientAddress(addresses: ClientAddresses): Middleware<HttpState> {
  return async (ctx, next) => {
    ctx.request.ip = addresses.ofRequest(ctx.req);
    if (!addresses.fromTrustedProxy(ctx.req)) {
      for (const header of FORWARDED_URL_HEADERS) delete ctx.req.headers[header];
    }
    await next();
  };
}
