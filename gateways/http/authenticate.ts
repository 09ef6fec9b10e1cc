import type { Caller } from '../../accounts/model.js';
import type { AccessTokens } from '../../accounts/sessions/access-tokens.js';
import type { SessionStore } from '../../accounts/sessions/session-store.js';
import type { CallerResolver } from './endpoint-router.js';
import type { HttpContext } from './state.js';

/**
 * Turns `Authorization: Bearer <access token>` into a Caller once per request: the token's
 * signature and expiry, then its session and user as they are now (so a revoked session or a
 * banned user is refused on the very next request).
 */
export function bearerCallerResolver(tokens: AccessTokens, sessions: SessionStore): CallerResolver {
  const resolved = new WeakMap<HttpContext, Promise<Caller | undefined>>();
  return (ctx) => {
    let caller = resolved.get(ctx);
    if (!caller) {
      caller = resolve(ctx, tokens, sessions);
      resolved.set(ctx, caller);
    }
    return caller;
  };
}

async function resolve(ctx: HttpContext, tokens: AccessTokens, sessions: SessionStore): Promise<Caller | undefined> {
  const match = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i.exec(ctx.get('Authorization'));
  if (!match) return undefined;
  const claims = await tokens.verify(match[1]!);
  if (!claims) return undefined;
  const caller = await sessions.resolve(claims.sid);
  if (!caller) return undefined;
  // A token names its subject; a session that now belongs to someone else is not this token's.
  const subject = caller.kind === 'user' ? caller.userId : caller.guestId;
  return subject === claims.sub ? caller : undefined;
}
