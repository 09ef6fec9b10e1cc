import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors/index.js';
import { AVATAR_UPLOAD_RATE } from '../contracts/http/users.js';

/**
 * Rate limits of the sign-in, sign-up and code-verification endpoints (and of connecting media
 * libraries, which makes this server call a URL the caller chose), counted in Redis so every
 * gateway replica shares them.
 *
 * Failed sign-ins are counted twice: per (account, IP), which blocks one attacker's address
 * quickly, and per account across all addresses, with a higher ceiling and a short block. An
 * attacker can therefore slow an account's sign-in but never lock its owner out for longer
 * than that short block at a time: the owner's own address has its own count.
 */
export interface LimitPolicy {
  points: number;
  durationSeconds: number;
  /** How long the key stays blocked once over the limit (default: the rest of the window). */
  blockSeconds?: number;
}

export const LIMITS = {
  /** Every sign-in attempt (success or not) from one address. */
  signInPerIp: { points: 60, durationSeconds: 60 },
  /** Failed sign-ins for one account from one address. */
  failuresPerAccountIp: { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** Failed sign-ins for one account from anywhere: back-off, never a long lock. */
  failuresPerAccount: { points: 50, durationSeconds: 15 * 60, blockSeconds: 60 },
  /** OAuth2 authorizations started from one address (each holds a Redis entry for 10 minutes). */
  oauth2StartsPerIp: { points: 30, durationSeconds: 60 },
  /** Account creation attempts from one address. */
  signUpPerIp: { points: 20, durationSeconds: 60 * 60 },
  /** Codes (TOTP, recovery, emailed) tried for one account or challenge. */
  codeFailuresPerAccount: { points: 5, durationSeconds: 15 * 60, blockSeconds: 5 * 60 },
  /** Codes tried from one address. */
  codesPerIp: { points: 30, durationSeconds: 60 },
  /** Emails sent to one address (signup confirmation, password reset). */
  emailsPerAddress: { points: 5, durationSeconds: 60 * 60 },
  /** Library connects (each lists the root of a server the caller names), failed ones included, per user or guest. */
  libraryConnectsPerCaller: { points: 10, durationSeconds: 60 },
  /**
   * Avatar uploads per user, refused ones included: each decodes a picture on the thread pool
   * every request shares. Ten in ten minutes is plenty to try a few pictures.
   */
  avatarUploadsPerUser: AVATAR_UPLOAD_RATE,
} as const satisfies Record<string, LimitPolicy>;

export type LimitName = keyof typeof LIMITS;

export class RateLimits {
  private readonly limiters = new Map<LimitName, RateLimiterRedis>();

  constructor(redis: Redis, prefix = 'svc:rl') {
    for (const [name, policy] of Object.entries(LIMITS) as Array<[LimitName, LimitPolicy]>) {
      this.limiters.set(
        name,
        new RateLimiterRedis({
          storeClient: redis,
          keyPrefix: `${prefix}:${name}`,
          points: policy.points,
          duration: policy.durationSeconds,
          ...(policy.blockSeconds ? { blockDuration: policy.blockSeconds } : {}),
        }),
      );
    }
  }

  /** Counts one attempt; `rate_limited` with Retry-After when the key is over its limit. */
  async consume(name: LimitName, key: string, what: string): Promise<void> {
    try {
      await this.limiter(name).consume(key);
    } catch (err) {
      throw toAppError(err, what);
    }
  }

  /**
   * Counts one attempt against a budget of failures before it is judged, and refuses it
   * (`rate_limited`) when that count passes the budget. Counting first is what makes the budget
   * hold under concurrency: twenty guesses sent at once take counts 1..20 in Redis, and only the
   * first `points` of them are judged. An attempt that turns out right gives its point back
   * (`refund`) or clears the key (`reset`), as its flow says.
   */
  async attempt(name: LimitName, key: string, what: string): Promise<void> {
    const res = await this.count(name, key);
    const policy: LimitPolicy = LIMITS[name];
    if (res.consumedPoints > policy.points) throw limited(what, res.msBeforeNext);
  }

  private async count(name: LimitName, key: string): Promise<RateLimiterRes> {
    let res: RateLimiterRes;
    try {
      res = await this.limiter(name).penalty(key, 1);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw unavailable(err);
      res = err;
    }
    const policy: LimitPolicy = LIMITS[name];
    // Blocks once, when the count first goes over; later failures neither lengthen nor shorten it.
    if (res.consumedPoints === policy.points + 1 && policy.blockSeconds) {
      await this.limiter(name).block(key, policy.blockSeconds);
    }
    return res;
  }

  /** Gives back one point counted by `attempt` (a failure presumed until proved otherwise). */
  async refund(name: LimitName, key: string): Promise<void> {
    try {
      await this.limiter(name).reward(key, 1);
    } catch (err) {
      throw unavailable(err);
    }
  }

  async reset(name: LimitName, key: string): Promise<void> {
    await this.limiter(name).delete(key);
  }

  private limiter(name: LimitName): RateLimiterRedis {
    return this.limiters.get(name)!;
  }
}

function toAppError(err: unknown, what: string): AppError {
  if (err instanceof RateLimiterRes) return limited(what, err.msBeforeNext);
  return unavailable(err);
}

/** `rate_limited` with the seconds to wait (Retry-After); the room rates use it too. */
export function limited(what: string, msBeforeNext: number): AppError {
  const seconds = Math.max(1, Math.ceil(msBeforeNext / 1000));
  return new AppError('rate_limited', `too many ${what}; try again in ${seconds} s`, [], { retryAfterSeconds: seconds });
}

function unavailable(err: unknown): AppError {
  // Failing closed: without Redis no limit can be enforced, so sign-in waits for it.
  return new AppError('unavailable', 'sign-in is unavailable: the rate-limit store (Redis) cannot be reached', [], { cause: err });
}
