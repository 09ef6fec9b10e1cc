/**
 * A bounded pool for expensive jobs (media tool processes, subtitle conversions): at most
 * `concurrency` run at once, at most `queueSize` wait behind them, each for at most
 * `queueWaitMs`; past either bound a job is refused with `resource_exhausted` and a Retry-After, at once,
 * rather than piling up processes or memory. A job asked for while one with the same key runs
 * or waits is not started again: the second caller gets the first one's result (single
 * flight), so a burst of identical asks costs one job and one queue place.
 */
import { AppError } from '../../errors/index.js';

export interface WorkPoolOptions {
  concurrency: number;
  queueSize: number;
  queueWaitMs: number;
  /** What the jobs are, for refusals: "media tools" gives "all media tools are in use". */
  what: string;
  /** Retry-After of a refusal, in seconds. */
  retryAfterSeconds?: number;
}

/** What became of one ask: started (at once or after waiting), joined a running or waiting job, or refused. */
export type PoolOutcome = 'started' | 'joined' | 'queue_full' | 'queue_timeout';

interface Waiter {
  start(): void;
  timer: NodeJS.Timeout;
}

export class WorkPool {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private readonly flights = new Map<string, Promise<unknown>>();

  constructor(
    private readonly options: WorkPoolOptions,
    private readonly observe: (outcome: PoolOutcome) => void = () => undefined,
  ) {
    if (!(options.concurrency >= 1)) throw new Error('a work pool needs a concurrency of at least 1');
  }

  /** Jobs running now. */
  get running(): number {
    return this.active;
  }

  /** Jobs waiting for a place. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Runs `job` when a place is free (or joins the job of the same key); refused with `resource_exhausted` when full. */
  run<T>(key: string, job: () => Promise<T>): Promise<T> {
    const flight = this.flights.get(key);
    if (flight) {
      this.observe('joined');
      return flight as Promise<T>;
    }
    const result = this.admit().then(async () => {
      this.observe('started');
      try {
        return await job();
      } finally {
        this.release();
      }
    });
    this.flights.set(key, result);
    const forget = () => {
      if (this.flights.get(key) === result) this.flights.delete(key);
    };
    result.then(forget, forget);
    return result;
  }

  /** Resolves once the job may start: at once when a place is free, else after waiting in line. */
  private admit(): Promise<void> {
    if (this.active < this.options.concurrency) {
      this.active += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.options.queueSize) {
      this.observe('queue_full');
      return Promise.reject(this.refusal(`all ${this.options.what} are in use and ${this.options.queueSize} jobs already wait for them`));
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        start: () => {
          clearTimeout(waiter.timer);
          this.active += 1;
          resolve();
        },
        timer: setTimeout(() => {
          const index = this.waiting.indexOf(waiter);
          if (index !== -1) this.waiting.splice(index, 1);
          this.observe('queue_timeout');
          reject(this.refusal(`all ${this.options.what} stayed in use for ${Math.round(this.options.queueWaitMs / 1000)} s`));
        }, this.options.queueWaitMs),
      };
      this.waiting.push(waiter);
    });
  }

  private release(): void {
    this.active -= 1;
    // First come, first served.
    this.waiting.shift()?.start();
  }

  private refusal(reason: string): AppError {
    const retryAfterSeconds = this.options.retryAfterSeconds ?? 5;
    return new AppError('resource_exhausted', `${reason}; try again in ${retryAfterSeconds} s`, [], { retryAfterSeconds });
  }
}
