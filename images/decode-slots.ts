/**
 * How many uploaded pictures one process decodes at once. sharp (libvips) does its work on
 * libuv's thread pool, four threads by default, which DNS lookups, file reads and zlib of every
 * request share: a burst of large uploads would hold all four and stall the rest. Decodes past
 * `size` wait here, in order, for a bounded time; past `maxQueued` waiting, or after
 * `maxWaitMs`, the upload is refused `resource_exhausted` with a Retry-After instead of piling up.
 */
import { AppError } from '../errors/index.js';

export interface DecodeSlotLimits {
  /** Decodes running at once. */
  size: number;
  /** Decodes waiting for a slot. */
  maxQueued: number;
  maxWaitMs: number;
}

export const IMAGE_DECODE_LIMITS: DecodeSlotLimits = { size: 2, maxQueued: 16, maxWaitMs: 15_000 };

function exhausted(why: string): AppError {
  return new AppError('resource_exhausted', `the server is decoding other pictures (${why}); try again in a few seconds`, [], { retryAfterSeconds: 2 });
}

export class DecodeSlots {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly limits: DecodeSlotLimits) {}

  async run<T>(work: () => Promise<T>): Promise<T> {
    await this.acquire();
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  private acquire(): Promise<void> {
    if (this.running < this.limits.size) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiting.length >= this.limits.maxQueued) return Promise.reject(exhausted(`${this.limits.maxQueued} are waiting`));
    return new Promise<void>((resolve, reject) => {
      const turn = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(turn);
        if (index >= 0) this.waiting.splice(index, 1);
        reject(exhausted(`none was free for ${this.limits.maxWaitMs / 1000} s`));
      }, this.limits.maxWaitMs);
      this.waiting.push(turn);
    });
  }

  /** Hands the slot to the next waiting decode, if any, else frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}

/** The process's slots, shared by every kind of upload (avatars, emotes). */
export const imageDecodes = new DecodeSlots(IMAGE_DECODE_LIMITS);
