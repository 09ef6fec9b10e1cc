/**
 * At most `max` room sockets and `WatchRoom` streams open at once per user (or guest) in one
 * gateway process; the next is refused with `limit_exceeded` (429 with Retry-After on the
 * upgrade, RESOURCE_EXHAUSTED on gRPC). Per process, not cluster-wide: a count shared through
 * Redis would cost a round trip per open and a leak per crashed gateway, while a client
 * reaching several gateways still holds only a few times `max`, not unbounded.
 * docs/2026-11-26-session-revocation.md.
 */
import { subjectOf, type Caller } from '../accounts/index.js';
import { AppError } from '../errors/index.js';

/** Room tabs, devices and native clients of one person stay far below it; a runaway loop does not. */
export const MAX_CONNECTIONS_PER_USER = 20;
/** A slot frees when one of the user's connections closes: there is no better hint than "soon". */
const RETRY_AFTER_SECONDS = 10;

export class ConnectionCap {
  private readonly open = new Map<string, number>();

  constructor(private readonly max = MAX_CONNECTIONS_PER_USER) {}

  /** Takes a slot for one connection of `caller`; returns its release (idempotent). Throws `limit_exceeded` when none is left. */
  reserve(caller: Caller): () => void {
    const subject = subjectOf(caller);
    const count = this.open.get(subject) ?? 0;
    if (count >= this.max) {
      throw new AppError('limit_exceeded', `you have ${this.max} room connections open on this server already (sockets and WatchRoom streams); close one first`, [], {
        retryAfterSeconds: RETRY_AFTER_SECONDS,
      });
    }
    this.open.set(subject, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(subject) ?? 1) - 1;
      if (left > 0) this.open.set(subject, left);
      else this.open.delete(subject);
    };
  }
}
