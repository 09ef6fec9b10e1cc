/**
 * Timers an activation schedules on itself. Each is delivered back as a command through the
 * mailbox, so a timer runs in a turn like any command; at most one of each name is pending.
 * Names belong to the parts that declare them (part.ts `timers`: `persist`, `ready`, `presence`, …).
 */
import { randomBytes } from 'node:crypto';
import { AppError } from '../../errors/index.js';
import type { ActivationContext } from '../runtime/actor-type.js';

/** A timer's name, as the part that runs it declares it. */
export type TimerName = string;
export const TIMER_KIND = 'room.timer';

interface TimerCommand {
  kind: typeof TIMER_KIND;
  name: TimerName;
  token: string;
}

export class RoomTimers {
  private readonly pending = new Map<TimerName, { token: string; cancel(): void }>();
  /** Makes timer commands unforgeable: a client cannot guess it to fire one. */
  private readonly secret = randomBytes(16).toString('base64url');
  private seq = 0;

  constructor(private readonly ctx: Pick<ActivationContext, 'schedule'>) {}

  get size(): number {
    return this.pending.size;
  }

  has(name: TimerName): boolean {
    return this.pending.has(name);
  }

  schedule(name: TimerName, ms: number): void {
    this.cancel(name);
    this.seq += 1;
    const token = `${this.secret}.${this.seq}`;
    const command: TimerCommand = { kind: TIMER_KIND, name, token };
    const handle = this.ctx.schedule(ms, command);
    this.pending.set(name, { token, cancel: () => handle.cancel() });
  }

  cancel(name: TimerName): void {
    this.pending.get(name)?.cancel();
    this.pending.delete(name);
  }

  cancelAll(): void {
    for (const name of [...this.pending.keys()]) this.cancel(name);
  }

  /**
   * The timer a delivered timer command stands for, or null for a stale one (cancelled or
   * replaced after it was queued). Throws for a forged one.
   */
  claim(raw: unknown): TimerName | null {
    const command = raw as Partial<TimerCommand>;
    const token = typeof command.token === 'string' ? command.token : '';
    if (!token.startsWith(`${this.secret}.`)) throw new AppError('forbidden', 'timer commands are internal to the room');
    const name = command.name as TimerName;
    const pending = this.pending.get(name);
    if (!pending || pending.token !== token) return null;
    this.pending.delete(name);
    return name;
  }
}
