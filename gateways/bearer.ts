/**
 * `Authorization: Bearer <access token>` to a Caller, for every transport that carries the
 * header (HTTP requests, gRPC metadata): the token's signature and expiry, then its session and
 * user as they are now, so a revoked session or a banned user is refused on the very next call.
 */
import type { Caller } from '../accounts/model.js';
import type { AccessTokens } from '../accounts/sessions/access-tokens.js';
import type { SessionStore } from '../accounts/sessions/session-store.js';

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i;

/** Undefined when the header is missing, malformed, or names no live session of the token's subject. */
export async function callerFromBearer(header: string | undefined, tokens: AccessTokens, sessions: SessionStore): Promise<Caller | undefined> {
  const match = header === undefined ? null : BEARER.exec(header);
  if (!match) return undefined;
  const claims = await tokens.verify(match[1]!);
  if (!claims) return undefined;
  const caller = await sessions.resolve(claims.sid);
  if (!caller) return undefined;
  // A token names its subject; a session that now belongs to someone else is not this token's.
  const subject = caller.kind === 'user' ? caller.userId : caller.guestId;
  return subject === claims.sub ? caller : undefined;
}
