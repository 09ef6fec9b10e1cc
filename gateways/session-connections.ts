/**
 * The long-lived connections this gateway process holds for signed-in users and guests (room
 * WebSockets, gRPC `WatchRoom` streams, HTTP-FLV live responses), indexed by the session that
 * opened them, so that when a session ends they end too, within a second, on every gateway:
 * revocations arrive on NATS (`accounts/sessions/revocation.ts`), and guests' connections end
 * here when `user.enableGuest` goes off (the setting itself reaches every replica).
 * docs/2026-11-26-session-revocation.md.
 */
import { Events, type NatsConnection, type Subscription } from 'nats';
import type { Caller } from '../accounts/index.js';
import { parseRevocation, REVOCATION_MESSAGES, revocationSubject, type Revocation, type RevocationReason } from '../accounts/index.js';
import type { SessionStore } from '../accounts/index.js';
import type { ErrorCode } from '../contracts/errors.js';
import type { Logger } from '../observability/index.js';
import type { RuntimeSettings } from '../settings/index.js';

/** Why a held connection ends: what its transport tells the client. */
export interface SessionEnding {
  reason: RevocationReason;
  /** `account_banned` for a ban, `unauthenticated` otherwise. */
  code: Extract<ErrorCode, 'unauthenticated' | 'account_banned'>;
  message: string;
}

export type EndConnection = (ending: SessionEnding) => void;

interface Held {
  caller: Caller;
  end: EndConnection;
}

/**
 * How often every held session is read again. Announcements travel at most once: one lost
 * while a gateway was cut off from NATS would leave its connections open for good; the sweep
 * (and one right after every NATS reconnect) bounds that to this interval.
 */
export const DEFAULT_RECHECK_MS = 30_000;

/** Sessions read per query by a sweep: one round trip for a gateway's worth rather than one each. */
const SWEEP_BATCH = 500;

export class SessionConnections {
  private readonly bySession = new Map<string, Set<Held>>();
  private readonly observers = new Set<(revocation: Revocation) => void>();
  private readonly sub: Subscription;
  private readonly unsubscribeSettings: () => void;
  private readonly sweepTimer: NodeJS.Timeout;
  private sweeping = false;
  private closed = false;

  constructor(
    nc: NatsConnection,
    prefix: string,
    private readonly sessions: Pick<SessionStore, 'resolve' | 'liveAmong'>,
    private readonly settings: RuntimeSettings,
    private readonly logger: Logger,
    recheckMs = DEFAULT_RECHECK_MS,
  ) {
    this.sub = nc.subscribe(revocationSubject(prefix), {
      callback: (err, msg) => {
        if (err) return;
        const revocation = parseRevocation(msg.data);
        if (!revocation) this.logger.warn('dropped a malformed session revocation');
        else this.revoke(revocation);
      },
    });
    this.unsubscribeSettings = settings.subscribe(
      (change) => {
        if (change.value === false) this.revoke({ scope: 'guests', reason: 'guests_disabled' });
      },
      ['user.enableGuest'],
    );
    this.sweepTimer = setInterval(() => void this.sweep(), recheckMs);
    this.sweepTimer.unref();
    void this.sweepAfterReconnects(nc);
  }

  /**
   * Holds a connection of `caller` until the returned release is called; `end` is called (once)
   * if its session ends first. The session is read once more after the connection is held: a
   * revocation that committed while the connection was being opened was announced before this
   * gateway listened for it.
   */
  hold(caller: Caller, end: EndConnection): () => void {
    const held: Held = { caller, end };
    let entries = this.bySession.get(caller.sessionId);
    if (!entries) this.bySession.set(caller.sessionId, (entries = new Set()));
    entries.add(held);
    void this.recheck(held);
    return () => this.release(held);
  }

  /** Calls `observer` with every revocation this gateway hears of (a cache of live sessions evicts with it). */
  onRevoked(observer: (revocation: Revocation) => void): () => void {
    this.observers.add(observer);
    return () => {
      this.observers.delete(observer);
    };
  }

  /** Connections held (for tests and metrics). */
  count(): number {
    let total = 0;
    for (const entries of this.bySession.values()) total += entries.size;
    return total;
  }

  close(): void {
    this.closed = true;
    clearInterval(this.sweepTimer);
    this.sub.unsubscribe();
    this.unsubscribeSettings();
  }

  /** Reads every held session again, one at a time, and ends the connections of those that ended. */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const held = [...this.bySession.keys()];
      for (let from = 0; from < held.length && !this.closed; from += SWEEP_BATCH) {
        await this.recheckSessions(held.slice(from, from + SWEEP_BATCH));
      }
    } finally {
      this.sweeping = false;
    }
  }

  private async sweepAfterReconnects(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.closed) return;
      if (status.type !== Events.Reconnect) continue;
      this.logger.warn({ sessions: this.bySession.size }, 'NATS reconnected: session revocations may have been lost, held sessions are read again');
      void this.sweep();
    }
  }

  private revoke(revocation: Revocation): void {
    for (const observer of this.observers) {
      try {
        observer(revocation);
      } catch (err) {
        this.logger.error({ err }, 'a session revocation observer failed');
      }
    }
    const ending = endingOf(revocation.reason);
    for (const [sessionId, entries] of [...this.bySession]) {
      for (const held of [...entries]) {
        if (matches(revocation, sessionId, held.caller)) this.end(held, ending);
      }
    }
  }

  /** Never ends the connection before `hold` has returned (the caller may not be ready for it). */
  private async recheck(held: Held): Promise<void> {
    const ending = await this.endingNow(held.caller);
    if (ending) this.end(held, ending);
  }

  /** Ends every connection of those of `sessionIds` that are no longer live. */
  private async recheckSessions(sessionIds: string[]): Promise<void> {
    let live: Set<string>;
    try {
      live = await this.sessions.liveAmong(sessionIds);
    } catch (err) {
      // Live when last read; announcements and the next sweep still apply.
      this.logger.warn({ err, sessions: sessionIds.length }, 'could not re-read held sessions');
      return;
    }
    const guestsAllowed = this.settings.get('user.enableGuest');
    for (const sessionId of sessionIds) {
      for (const held of [...(this.bySession.get(sessionId) ?? [])]) {
        if (!live.has(sessionId)) this.end(held, endingOf('ended'));
        else if (held.caller.kind === 'guest' && !guestsAllowed) this.end(held, endingOf('guests_disabled'));
      }
    }
  }

  /** Why `caller`'s connections must end now, or undefined while its session is live (or cannot be read). */
  private async endingNow(caller: Caller): Promise<SessionEnding | undefined> {
    let live: boolean;
    try {
      live = (await this.sessions.resolve(caller.sessionId)) !== undefined;
    } catch (err) {
      // The session was live when last read; announcements and the next sweep still apply.
      this.logger.warn({ err }, 'could not re-read a held session');
      return undefined;
    }
    if (!live) return endingOf('ended');
    if (caller.kind === 'guest' && !this.settings.get('user.enableGuest')) return endingOf('guests_disabled');
    return undefined;
  }

  private end(held: Held, ending: SessionEnding): void {
    if (!this.release(held)) return;
    try {
      held.end(ending);
    } catch (err) {
      this.logger.error({ err }, 'ending a connection of a revoked session failed');
    }
  }

  private release(held: Held): boolean {
    const entries = this.bySession.get(held.caller.sessionId);
    if (!entries?.delete(held)) return false;
    if (entries.size === 0) this.bySession.delete(held.caller.sessionId);
    return true;
  }
}

/** Whether a revocation ends the session `sessionId` of `caller`. */
export function matches(revocation: Revocation, sessionId: string, caller: Caller): boolean {
  switch (revocation.scope) {
    case 'session':
      return revocation.sessionId === sessionId;
    case 'user':
      return caller.kind === 'user' && caller.userId === revocation.userId && revocation.keep !== sessionId;
    case 'guests':
      return caller.kind === 'guest';
  }
}

function endingOf(reason: RevocationReason): SessionEnding {
  return { reason, code: reason === 'banned' ? 'account_banned' : 'unauthenticated', message: REVOCATION_MESSAGES[reason] };
}
