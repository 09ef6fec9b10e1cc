import type { Redis } from 'ioredis';
import { AppError } from '../../errors/index.js';
import { OneTimeStore } from '../one-time-store.js';

/**
 * The challenges of WebAuthn ceremonies between their two requests (a OneTimeStore each): the
 * first verify spends a challenge whatever its outcome, so a replayed response (or a second try
 * with the same challenge) finds nothing. Each ceremony has its own store, so a login challenge
 * cannot finish a registration.
 */
export type Ceremony = 'signup' | 'login' | 'bind';

export type ChallengeRecord =
  | { ceremony: 'signup'; challenge: string; username: string; usernameKey: string; displayName: string }
  | { ceremony: 'login'; challenge: string; usernameKey?: string }
  | { ceremony: 'bind'; challenge: string; userId: string };

/** Five minutes: enough for a person to find and unlock an authenticator, short for a thief. */
export const CHALLENGE_TTL_SECONDS = 300;

export class ChallengeStore {
  private readonly stores = new Map<Ceremony, OneTimeStore<ChallengeRecord>>();

  constructor(redis: Redis, prefix: string) {
    for (const ceremony of ['signup', 'login', 'bind'] as const) {
      this.stores.set(ceremony, new OneTimeStore(redis, `${prefix}:webauthn:${ceremony}`, CHALLENGE_TTL_SECONDS));
    }
  }

  /** Stores the record and answers the handle the client sends with its response. */
  put(record: ChallengeRecord): Promise<string> {
    return this.stores.get(record.ceremony)!.put(record);
  }

  /** Takes the record once; an unknown, expired or already used handle is `unauthenticated`. */
  async take<C extends Ceremony>(ceremony: C, challengeId: string): Promise<Extract<ChallengeRecord, { ceremony: C }>> {
    const record = await this.stores.get(ceremony)!.take(challengeId);
    if (!record) {
      throw new AppError('unauthenticated', `the ${ceremony} challenge is unknown, expired or already used; request new options and try again`);
    }
    return record as Extract<ChallengeRecord, { ceremony: C }>;
  }
}
