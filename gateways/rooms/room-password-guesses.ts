/**
 * Limits on guessing a room's password, for the join path of every gateway that can join (HTTP
 * and gRPC; a WebSocket opens only for members). Counted in Redis so every replica shares them,
 * per room and user and per room and client address: the address alone is known only here, at
 * the gateway, never in the room actor (docs/2026-11-26-room-abuse.md).
 *
 * A join that carries a password is counted **before** the room judges it and the point is
 * given back when it succeeds, so guesses sent at once cannot exceed the budget while the
 * room hashes them. While a key is over its budget every join with a password is refused with
 * `rate_limited`, the right password too: an answer that told a right password from a wrong
 * one during the block would let guessing go on.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { limited } from '../../accounts/index.js';
import { AppError, isAppError } from '../../errors/index.js';

interface GuessPolicy {
  points: number;
  durationSeconds: number;
  blockSeconds: number;
}

export const ROOM_PASSWORD_LIMITS = {
  /** Wrong passwords for one room from one user. */
  perRoomUser: { points: 10, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
  /** Wrong passwords for one room from one address (many accounts or guest sessions). */
  perRoomAddress: { points: 30, durationSeconds: 15 * 60, blockSeconds: 15 * 60 },
} as const satisfies Record<string, GuessPolicy>;

type LimitName = keyof typeof ROOM_PASSWORD_LIMITS;

export interface JoinAttempt {
  roomId: string;
  userId: string;
  /** The client address as the gateway computes it (Koa's ctx.ip, gRPC's ctx.client.ip). */
  ip: string;
  password: string | undefined;
}

export class RoomPasswordGuesses {
  private readonly limiters: Record<LimitName, RateLimiterRedis>;

  constructor(redis: Redis, prefix = 'svc:rl') {
    const limiter = (name: LimitName) => {
      const policy = ROOM_PASSWORD_LIMITS[name];
      return new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:roomPassword:${name}`,
        points: policy.points,
        duration: policy.durationSeconds,
        blockDuration: policy.blockSeconds,
      });
    };
    this.limiters = { perRoomUser: limiter('perRoomUser'), perRoomAddress: limiter('perRoomAddress') };
  }

  /**
   * Runs `join` (the member.join command) under the limits when it carries a password. Only a
   * `forbidden` answer (a wrong password, or a caller the room turns away anyway) keeps the
   * point: a join that fails for another reason (the room unreachable, full, a bad field) is no
   * guess.
   */
  async guard<T>(attempt: JoinAttempt, join: () => Promise<T>): Promise<T> {
    if (attempt.password === undefined || attempt.password === '') return join();
    const keys: Record<LimitName, string> = {
      perRoomUser: `${attempt.roomId}:${attempt.userId}`,
      perRoomAddress: `${attempt.roomId}:${attempt.ip}`,
    };
    const left = await this.countAll(keys);
    try {
      const result = await join();
      await this.refundAll(keys);
      return result;
    } catch (err) {
      if (!isAppError(err) || err.code !== 'forbidden') await this.refundAll(keys);
      throw isWrongPassword(err) ? withTriesLeft(err, left) : err;
    }
  }

  /**
   * Counts one guess on every key; when any is spent or blocked, gives the others back and
   * refuses. Answers the guesses left after this one (the smallest budget's).
   */
  private async countAll(keys: Record<LimitName, string>): Promise<number> {
    const names = Object.keys(keys) as LimitName[];
    const outcomes = await Promise.allSettled(names.map((name) => this.limiters[name].consume(keys[name])));
    const refused = outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason as unknown] : []));
    if (refused.length === 0) return Math.min(...outcomes.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value.remainingPoints : 0)));
    // Not judged, so not a guess for the keys that still had room either.
    await this.refundAll(Object.fromEntries(names.filter((_, i) => outcomes[i]?.status === 'fulfilled').map((name) => [name, keys[name]])) as Record<LimitName, string>);
    const spent = refused.filter((reason): reason is RateLimiterRes => reason instanceof RateLimiterRes);
    // Failing closed: without Redis the limit cannot hold, so password joins wait for it.
    if (spent.length < refused.length) throw new AppError('unavailable', 'joining with a password is unavailable: the rate-limit store (Redis) cannot be reached');
    throw limited('wrong passwords for this room', Math.max(...spent.map((res) => res.msBeforeNext)));
  }

  /** Gives back a point counted in advance; a refund lost to Redis only leaves one guess counted. */
  private async refundAll(keys: Record<LimitName, string>): Promise<void> {
    const names = Object.keys(keys) as LimitName[];
    await Promise.all(names.map((name) => this.limiters[name].reward(keys[name], 1))).catch(() => undefined);
  }
}

function isWrongPassword(err: unknown): err is AppError {
  return isAppError(err) && err.code === 'forbidden' && err.issues.some((issue) => issue.key === 'password');
}

/**
 * The room's "wrong room password" with what a person can do about it: how many more tries
 * before password joins to this room pause, and for how long. Said with every wrong guess, so
 * the pause never comes as a surprise.
 */
function withTriesLeft(err: AppError, left: number): AppError {
  const pause = `${Math.round(ROOM_PASSWORD_LIMITS.perRoomUser.blockSeconds / 60)} minutes`;
  const tries =
    left <= 0
      ? `no tries left: joining this room with a password pauses for ${pause}`
      : `${left} more ${left === 1 ? 'try' : 'tries'} before joining this room with a password pauses for ${pause}`;
  return new AppError(err.code, `${err.message} (${tries})`, err.issues, { cause: err });
}
