import type { Caller } from '../../accounts/index.js';
import type { AccessTokens } from '../../accounts/index.js';
import type { SessionStore } from '../../accounts/index.js';
import { callerFromBearer } from '../bearer.js';
import type { CallerResolver } from './endpoint-router.js';
import type { HttpContext } from './state.js';

/**
 * Turns `Authorization: Bearer <access token>` into a Caller once per request
 * (`gateways/bearer.ts`, shared with the gRPC gateway).
 */
export function bearerCallerResolver(tokens: AccessTokens, sessions: SessionStore): CallerResolver {
  const resolved = new WeakMap<HttpContext, Promise<Caller | undefined>>();
  return (ctx) => {
    let caller = resolved.get(ctx);
    if (!caller) {
      caller = callerFromBearer(ctx.get('Authorization') || undefined, tokens, sessions);
      resolved.set(ctx, caller);
    }
    return caller;
  };
}
