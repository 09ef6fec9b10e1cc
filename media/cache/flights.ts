/**
 * Single-flight with cancellation: concurrent callers asking for the same id share one run of
 * the work. Each caller waits with its own signal; a caller that gives up stops waiting at
 * once, and when the last one has gone the work itself is aborted (a client that disconnects
 * cancels the upstream read only when nobody else waits for it).
 *
 * The work must leave its result findable elsewhere (the slice index) before it settles: the
 * id is forgotten only after that, so a caller never misses both.
 *
 * A result may carry a hold on something shared (a pooled slice buffer). With `holds`, every
 * caller is handed its own hold as the result reaches it (`share`), and the work's own hold is
 * let go (`drop`) only after every caller waiting then has been handed the result: each caller
 * releases its hold when done, and nobody's bytes are reused under them.
 */

export interface FlightHolds<T> {
  share(value: T): void;
  drop(value: T): void;
}

interface Flight<T> {
  controller: AbortController;
  waiters: number;
  done: Promise<T>;
}

export class Flights<T> {
  private readonly running = new Map<string, Flight<T>>();

  constructor(private readonly holds?: FlightHolds<T>) {}

  get size(): number {
    return this.running.size;
  }

  has(id: string): boolean {
    return this.running.has(id);
  }

  /** Waits for the flight `id`, starting it with `work` when none is running. */
  join(id: string, work: (signal: AbortSignal) => Promise<T>, signal: AbortSignal): Promise<T> {
    if (signal.aborted) return Promise.reject(signal.reason as Error);
    let flight = this.running.get(id);
    if (!flight) {
      const controller = new AbortController();
      const started: Flight<T> = { controller, waiters: 0, done: Promise.resolve().then(() => work(controller.signal)) };
      const forget = (): void => {
        if (this.running.get(id) === started) this.running.delete(id);
      };
      // Nobody waits any more: later callers start afresh instead of joining a doomed run.
      controller.signal.addEventListener('abort', forget, { once: true });
      started.done.then((value) => {
        forget();
        // Queued behind the reactions of the callers already waiting: each has its share first.
        if (this.holds) queueMicrotask(() => this.holds?.drop(value));
      }, forget);
      this.running.set(id, started);
      flight = started;
    }
    const joined = flight;
    joined.waiters += 1;
    return new Promise<T>((resolve, reject) => {
      let waiting = true;
      const stopWaiting = (): void => {
        waiting = false;
        signal.removeEventListener('abort', leave);
        joined.waiters -= 1;
      };
      const leave = (): void => {
        if (!waiting) return;
        stopWaiting();
        if (joined.waiters === 0) joined.controller.abort(signal.reason);
        reject(signal.reason as Error);
      };
      signal.addEventListener('abort', leave, { once: true });
      joined.done.then(
        (value) => {
          if (!waiting) return;
          stopWaiting();
          this.holds?.share(value);
          resolve(value);
        },
        (err: unknown) => {
          if (!waiting) return;
          stopWaiting();
          reject(err);
        },
      );
    });
  }

  /** Aborts every flight and waits until each has settled (closing the cache). */
  async abortAll(reason: Error): Promise<void> {
    const flights = [...this.running.values()];
    for (const flight of flights) flight.controller.abort(reason);
    await Promise.allSettled(flights.map((f) => f.done));
  }
}
