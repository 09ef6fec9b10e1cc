/**
 * Sets `ctx.ip` to the client address of `net/client-address.ts` before anything reads it.
 * Koa's own `proxy` handling takes the left-most X-Forwarded-For entry, which the client
 * writes itself, so it is never what the address comes from.
 */
import type { Middleware } from 'koa';
import type { ClientAddresses } from '../../net/client-address.js';
import type { HttpState } from './state.js';

export function clientAddress(addresses: ClientAddresses): Middleware<HttpState> {
  return async (ctx, next) => {
    ctx.request.ip = addresses.ofRequest(ctx.req);
    await next();
  };
}
