/**
 * `Authorization: Bearer <access token>` to a Caller, for every transport that carries the
 * header (HTTP requests, gRPC metadata): the token's signature and expiry, then its session and
 * user as they are now, so a revoked session or a banned user is refused on the very next call.
 */
import { subjectOf, type Caller } from '../accounts/index.js';
import type { AccessTokens } from '../accounts/index.js';
import type { SessionStore } from '../accounts/index.js';

const BEARER = /^Bearer\s+([A-Za-z0-9._~+/=-]{1,4096})\s*$/i;

/** The token of an `Authorization: Bearer <token>` header; undefined when the header is not that. */
export function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/** Undefined when the header is missing, malformed, or names no live session of the token's subject. */
export async function callerFromBearer(header: string | undefined, tokens: AccessTokens, sessions: SessionStore): Promise<Caller | undefined> {
  const token = bearerToken(header);
  return token === undefined ? undefined : callerFromToken(token, tokens, sessions);
}

/** The caller of an access token: undefined when it is invalid or expired, or its session ended or changed hands. */
export async function callerFromToken(token: string, tokens: AccessTokens, sessions: SessionStore): Promise<Caller | undefined> {
  const claims = await tokens.verify(token);
  if (!claims) return undefined;
  const caller = await sessions.resolve(claims.sid);
  if (!caller) return undefined;
  // A token names its subject; a session that now belongs to someone else is not this token's.
  return subjectOf(caller) === claims.sub ? caller : undefined;
}
