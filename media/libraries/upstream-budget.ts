/**
 * What a member may make this server ask of library servers, counted in upstream requests, not
 * in calls: one browse is one room read but a WebDAV search walks up to 50 folders and "Add
 * folder" lists up to 50, so a budget of calls would let one member have this server send fifty
 * times the requests it seems to. Every request a connector makes for a member's browse, search
 * or add draws one point from two budgets, counted in Redis so every gateway replica shares them:
 *
 *   - the caller's (user or guest), 300 a minute. An honest person browsing opens a folder every
 *     few seconds (one or two requests each: under 40 a minute), and a whole search or "Add
 *     folder" walk is at most 50: a minute of brisk browsing with five full searches stays under
 *     300. A script asking the room's read rate (100 a second) could otherwise make 5,000.
 *   - the library's, 1,200 a minute: what this server sends one library server from all its
 *     users at most (20 a second), so many guests together cannot hammer a member's NAS.
 *
 * Once either is spent the request is not sent, and the call (mid-walk too) fails with
 * `rate_limited` and the seconds to wait (HTTP 429 + Retry-After). Reading the bytes of items
 * (the proxy) is not counted here: it is bounded by the room's grants and the resolution cache.
 * While Redis cannot be reached each replica counts in memory instead, like the room rates.
 */
import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { limited } from '../../accounts/index.js';
import { AppError } from '../../errors/index.js';
import type { LibraryHttp } from './library-scope.js';

export const LIBRARY_UPSTREAM_BUDGET = {
  perCaller: { points: 300, durationSeconds: 60 },
  perLibrary: { points: 1200, durationSeconds: 60 },
} as const;

export class LibraryUpstreamBudget {
  private readonly perCaller: RateLimiterRedis;
  private readonly perLibrary: RateLimiterRedis;

  constructor(redis: Redis, prefix = 'svc:rl') {
    const limiter = (name: string, policy: { points: number; durationSeconds: number }): RateLimiterRedis =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${prefix}:${name}`,
        points: policy.points,
        duration: policy.durationSeconds,
        insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${prefix}:${name}`, points: policy.points, duration: policy.durationSeconds }),
      });
    this.perCaller = limiter('library-upstream-caller', LIBRARY_UPSTREAM_BUDGET.perCaller);
    this.perLibrary = limiter('library-upstream-library', LIBRARY_UPSTREAM_BUDGET.perLibrary);
  }

  /** `http` with each request counted against `caller`'s and `libraryId`'s budgets before it is sent. */
  metered(http: LibraryHttp, caller: string, libraryId: string): LibraryHttp {
    return {
      request: async (request) => {
        await this.spend(this.perCaller, caller, 'requests to library servers this minute (each folder a browse, search or "Add folder" reads is one)');
        await this.spend(this.perLibrary, libraryId, 'requests to this library\'s server this minute, from everyone using it');
        return http.request(request);
      },
    };
  }

  private async spend(limiter: RateLimiterRedis, key: string, what: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (err) {
      if (err instanceof RateLimiterRes) throw limited(what, err.msBeforeNext);
      throw new AppError('unavailable', 'the rate-limit store cannot be reached', [], { cause: err });
    }
  }
}
