/**
 * Short-lived TURN credentials in the "TURN REST API" form (draft-uberti-behave-turn-rest-00)
 * that coturn checks with `use-auth-secret` + `static-auth-secret`: the username is
 * `<unix expiry>:<user id>` and the credential is base64(HMAC-SHA1(secret, username)). The
 * TURN server recomputes the HMAC and refuses a username whose expiry has passed, so nothing
 * is shared with it but the secret, and a leaked credential dies on its own.
 */
import { createHmac } from 'node:crypto';

export interface TurnCredential {
  username: string;
  credential: string;
  /** Unix seconds. */
  expiresAt: number;
}

export function turnCredential(secret: string, userId: string, ttlSeconds: number, nowMs: number): TurnCredential {
  const expiresAt = Math.floor(nowMs / 1000) + ttlSeconds;
  const username = `${expiresAt}:${userId}`;
  return { username, credential: createHmac('sha1', secret).update(username).digest('base64'), expiresAt };
}
