/**
 * Hedged activate requests (the actor client's, client.ts).
 *
 * An activate request goes to one host of the pool's queue group, at random. A paused host
 * (SIGSTOP, a blocked event loop) still holds its place in the group and never answers, while
 * any live host answers in a few ms; so once an owner did not answer (it may be that paused
 * host), the request goes out in waves of ACTIVATE_HEDGE_WAVE copies, a wave at once and one
 * more every ACTIVATE_HEDGE_MS while none has answered, at most ACTIVATE_HEDGE_WAVES waves; the
 * first answer wins. Duplicates are harmless: a host shares an activation in progress, and
 * ownership's compare-and-set lets one host win; the other answers who owns it.
 *
 * Measured with three hosts and one paused (`bench:actors` (d)): before hedging a third of the
 * activate requests waited out their 500 ms try (stall failover p99 3.3 s against a 1.5 s lease);
 * with single copies, at most three, all three reached the paused host one time in 27 and waited
 * it out too (p99 2.15 s); a wave of two misses one time in 9, three waves one time in 729.
 */
import { ErrorCode, NatsError, type Msg } from 'nats';
import { isRequestTimeout } from './nats-errors.js';

export const ACTIVATE_HEDGE_MS = 100;
export const ACTIVATE_HEDGE_WAVE = 2;
export const ACTIVATE_HEDGE_WAVES = 3;

/** `request` (given the time left), in waves as above; rejects with the first error that is not a timeout, or the last timeout. */
export function hedged<T = Msg>(request: (timeoutMs: number) => Promise<T>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let outstanding = 0;
    let waves = 0;
    let lastError: unknown = NatsError.errorForCode(ErrorCode.Timeout);
    /** The next copy's timer, while one is due. */
    let timer: NodeJS.Timeout | undefined;
    const settle = (finish: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      finish();
    };
    // Every copy timed out and none is due: the last timeout is the answer.
    const exhausted = (): void => {
      if (outstanding === 0 && timer === undefined) settle(() => reject(lastError));
    };
    const send = (): void => {
      timer = undefined;
      const left = deadline - Date.now();
      if (settled) return;
      if (left <= 0) {
        // A late timer (a busy event loop) past the deadline: no copy more.
        exhausted();
        return;
      }
      waves += 1;
      for (let copy = 0; copy < ACTIVATE_HEDGE_WAVE && !settled; copy += 1) {
        outstanding += 1;
        request(left).then(
          (msg) => settle(() => resolve(msg)),
          (err: unknown) => {
            outstanding -= 1;
            lastError = err;
            // No responders, a closed connection: the next copy would meet the same.
            if (!isRequestTimeout(err)) settle(() => reject(err));
            else exhausted();
          },
        );
      }
      if (waves < ACTIVATE_HEDGE_WAVES && left > ACTIVATE_HEDGE_MS) timer = setTimeout(send, ACTIVATE_HEDGE_MS);
    };
    send();
  });
}
