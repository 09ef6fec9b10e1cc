import { withDeadline } from '../../fixtures/deadline.js';
import type { RoomEvent } from '../../../actors/room/index.js';
import type { SeqEvent } from './room-scenario.js';

const WAIT_MS = 10_000;

/** Events of one stream as they arrive; `next` takes the first matching one, waiting on a deadline. */
export class EventQueue {
  private readonly items: SeqEvent[] = [];
  private endReason: string | undefined;
  private error: Error | undefined;
  private wake: (() => void) | undefined;

  push(seq: number, event: RoomEvent): void {
    this.items.push({ seq, event });
    this.wake?.();
  }

  end(reason: string): void {
    this.endReason ??= reason;
    this.wake?.();
  }

  fail(err: Error): void {
    this.error ??= err;
    this.wake?.();
  }

  next(what: string, match: (event: RoomEvent) => boolean): Promise<SeqEvent> {
    return this.until(what, () => {
      const index = this.items.findIndex((item) => match(item.event));
      return index < 0 ? undefined : this.items.splice(0, index + 1).at(-1);
    });
  }

  ended(): Promise<string> {
    return this.until('the end of the stream', () => this.endReason);
  }

  private until<T>(what: string, probe: () => T | undefined): Promise<T> {
    return withDeadline(
      (async () => {
        for (;;) {
          const found = probe();
          if (found !== undefined) return found;
          if (this.error) throw this.error;
          await new Promise<void>((resolve) => (this.wake = resolve));
        }
      })(),
      WAIT_MS,
      what,
    );
  }
}
