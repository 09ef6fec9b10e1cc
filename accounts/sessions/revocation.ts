/**
 * Session revocations as announced to every gateway: after the revocation has committed, one
 * message on `<prefix>.sessions.revoked` says whose sessions ended, so gateways close the room
 * sockets, `WatchRoom` streams and media connections those sessions opened. PostgreSQL stays
 * the record (every request re-reads its session); the message only ends what is already open.
 * docs/2026-11-26-session-revocation.md.
 */
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import type { Logger } from '../../observability/index.js';

/** Why sessions ended, as gateways tell their clients. */
export const REVOCATION_REASONS = [
  'logout',
  'revoked',
  'logout_everywhere',
  'password_changed',
  'password_reset',
  'operator_reset',
  'banned',
  'refresh_reuse',
  'guests_disabled',
  /** Found ended when re-read (the announcement came before the gateway listened). */
  'ended',
] as const;
export type RevocationReason = (typeof REVOCATION_REASONS)[number];

export const Revocation = z.discriminatedUnion('scope', [
  z.object({ scope: z.literal('session'), sessionId: z.string(), reason: z.enum(REVOCATION_REASONS) }),
  /** Every session of the user, except `keep` (the caller's own, after a password change). */
  z.object({ scope: z.literal('user'), userId: z.string(), keep: z.string().optional(), reason: z.enum(REVOCATION_REASONS) }),
  /** Every guest session (user.enableGuest went off). */
  z.object({ scope: z.literal('guests'), reason: z.enum(REVOCATION_REASONS) }),
]);
export type Revocation = z.infer<typeof Revocation>;

/** What a client is told when its connection ends for `reason`. */
export const REVOCATION_MESSAGES: Record<RevocationReason, string> = {
  logout: 'session ended: you signed out',
  revoked: 'session ended: it was signed out from another device',
  logout_everywhere: 'session ended: you signed out everywhere',
  password_changed: 'session ended: the password was changed',
  password_reset: 'session ended: the password was reset',
  operator_reset: 'session ended: an operator reset the password',
  banned: 'session ended: the account is banned',
  refresh_reuse: 'session ended: its refresh token was used twice',
  guests_disabled: 'session ended: guest access was turned off',
  ended: 'session ended: sign in again',
};

export function revocationSubject(prefix: string): string {
  return `${prefix}.sessions.revoked`;
}

export interface RevocationPublisher {
  publish(revocation: Revocation): void;
}

/**
 * Best effort like notifications: a lost message leaves an already open connection open, but
 * never lets a revoked session make a new request or open a new connection.
 */
export function natsRevocationPublisher(nc: NatsConnection, prefix: string, logger: Logger): RevocationPublisher {
  return {
    publish(revocation) {
      try {
        nc.publish(revocationSubject(prefix), JSON.stringify(revocation));
      } catch (err) {
        logger.warn({ err, revocation }, 'could not announce a session revocation');
      }
    },
  };
}

const decoder = new TextDecoder();

export function parseRevocation(data: Uint8Array): Revocation | undefined {
  try {
    const parsed = Revocation.safeParse(JSON.parse(decoder.decode(data)));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}
