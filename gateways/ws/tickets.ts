/**
 * Realtime tickets: what a browser presents to open a room's WebSocket, since it cannot set an
 * `Authorization` header on one and tokens never travel in URLs. A ticket is issued over HTTP to
 * an active member, names one session (so one user or guest) and one room, lives in Redis for
 * `ttlSeconds` and is spent by the first upgrade that presents it (GETDEL), whichever gateway
 * replica that lands on.
 */
import type { Redis } from 'ioredis';
import { subjectOf, type Caller } from '../../accounts/index.js';
import { OneTimeStore } from '../../accounts/index.js';

export const TICKET_TTL_SECONDS = 30;
/** The Redis key prefix; a ticket is `<prefix>:<ticket>`. */
export const TICKET_KEY_PREFIX = 'svc:ws-ticket';

export interface TicketClaims {
  roomId: string;
  sessionId: string;
  /** The user id, or the guest id, the session belonged to when the ticket was issued. */
  subject: string;
  issuedAt: number;
}

export interface IssuedTicket {
  ticket: string;
  expiresIn: number;
}

export class RealtimeTickets {
  private readonly store: OneTimeStore<TicketClaims>;

  constructor(
    redis: Redis,
    readonly ttlSeconds = TICKET_TTL_SECONDS,
    prefix = TICKET_KEY_PREFIX,
  ) {
    this.store = new OneTimeStore<TicketClaims>(redis, prefix, ttlSeconds);
  }

  async issue(caller: Caller, roomId: string): Promise<IssuedTicket> {
    const ticket = await this.store.put({ roomId, sessionId: caller.sessionId, subject: subjectOf(caller), issuedAt: Date.now() });
    return { ticket, expiresIn: this.ttlSeconds };
  }

  /** Spends a ticket: its claims the first time, undefined when unknown, expired or already used. */
  take(ticket: string): Promise<TicketClaims | undefined> {
    return this.store.take(ticket);
  }
}
