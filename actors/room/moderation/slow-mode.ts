/**
 * Slow mode: while a room has it on, each member may send one chat message and one danmaku
 * comment per `slowModeSeconds`. Authoritative in the room actor, unlike the gateways' per-member
 * rate (gateways/rooms/room-rates.ts), which caps floods per second for every room and is
 * shared by all kinds of chat traffic; slow mode is the room admins' choice of pace.
 *
 * The last send times live in the activation's memory only: a new activation (a move, a crash,
 * an idle room woken) starts with none, so a member may send once more early after it. That is
 * one message, not a flood, and not worth a write per message (docs/2026-11-26-chat-moderation.md).
 */
import { AppError } from '../../../errors/index.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';

/** What slow mode paces separately: a chat message does not use up a danmaku comment's turn. */
export type SlowChannel = 'chat' | 'danmaku';

interface LastSend {
  at: number;
  /** The client's idempotency key of that send: its resend is the same message, not another. */
  retryKey: string | undefined;
}

/** Past this many remembered sends, the ones older than any slow mode are forgotten. */
const PRUNE_ABOVE = 1000;

export class SlowMode {
  private readonly last = new Map<string, LastSend>();

  /** Whether `retryKey` is the idempotency key of `userId`'s last send on `channel`. */
  isLastSend(userId: string, channel: SlowChannel, retryKey: string): boolean {
    return this.last.get(`${channel}:${userId}`)?.retryKey === retryKey;
  }

  /**
   * Takes `userId`'s turn on `channel` at `now`, or refuses with `rate_limited` carrying the
   * wait: `retryAfterSeconds` for the transports' Retry-After and an issue `retryAfterMs`.
   * `resend`: the caller checked that this is a resend of the last send (`isLastSend`) whose
   * message still stands, so it is that message, not another, and takes no turn. A resend of a
   * deleted message would be stored as a new one: it is paced like any other send.
   */
  admit(userId: string, channel: SlowChannel, seconds: number, now: number, retryKey?: string, resend = false): void {
    const key = `${channel}:${userId}`;
    const previous = this.last.get(key);
    if (resend && previous && retryKey !== undefined && previous.retryKey === retryKey) return;
    const waitMs = previous ? previous.at + seconds * 1000 - now : 0;
    if (waitMs > 0) {
      const waitSeconds = Math.ceil(waitMs / 1000);
      const what = channel === 'chat' ? 'one message' : 'one danmaku comment';
      throw new AppError(
        'rate_limited',
        `slow mode: ${what} every ${seconds} s in this room; try again in ${waitSeconds} s`,
        [{ key: 'retryAfterMs', message: String(waitMs) }],
        { retryAfterSeconds: waitMs / 1000 },
      );
    }
    if (this.last.size > PRUNE_ABOVE) this.prune(now);
    this.last.set(key, { at: now, retryKey });
  }

  private prune(now: number): void {
    const oldest = now - ROOM_LIMITS.slowModeMaxSeconds * 1000;
    for (const [key, send] of this.last) if (send.at <= oldest) this.last.delete(key);
  }

  clear(): void {
    this.last.clear();
  }
}

/** The wait a slow mode refusal carries, in ms, after it crossed the actor wire (which keeps only issues). */
export function slowModeWaitMs(err: AppError): number | undefined {
  if (err.code !== 'rate_limited') return undefined;
  const issue = err.issues.find((i) => i.key === 'retryAfterMs');
  const ms = issue ? Number(issue.message) : NaN;
  return Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
