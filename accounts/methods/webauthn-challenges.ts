import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors/app-error.js';

/**
 * The challenges of WebAuthn ceremonies between their two requests, in Redis so the verify
 * request may land on any gateway replica. A challenge is taken with GETDEL: the first verify
 * spends it whatever its outcome, so a replayed response (or a second try with the same
 * challenge) finds nothing. Each record is keyed by a random handle the client echoes back and
 * by its ceremony, so a login challenge cannot finish a registration.
 */
export type Ceremony = 'signup' | 'login' | 'bind';

export type ChallengeRecord =
  | { ceremony: 'signup'; challenge: string; username: string; usernameKey: string; displayName: string }
  | { ceremony: 'login'; challenge: string; usernameKey?: string }
  | { ceremony: 'bind'; challenge: string; userId: string };

/** Five minutes: enough for a person to find and unlock an authenticator, short for a thief. */
export const CHALLENGE_TTL_SECONDS = 300;

export class ChallengeStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  /** Stores the record and answers the handle the client sends with its response. */
  async put(record: ChallengeRecord): Promise<string> {
    const challengeId = randomBytes(24).toString('base64url');
    await this.redis.set(this.key(record.ceremony, challengeId), JSON.stringify(record), 'EX', CHALLENGE_TTL_SECONDS);
    return challengeId;
  }

  /** Takes the record once; an unknown, expired or already used handle is `unauthenticated`. */
  async take<C extends Ceremony>(ceremony: C, challengeId: string): Promise<Extract<ChallengeRecord, { ceremony: C }>> {
    const raw = await this.redis.getdel(this.key(ceremony, challengeId));
    if (raw === null) {
      throw new AppError('unauthenticated', `the ${ceremony} challenge is unknown, expired or already used; request new options and try again`);
    }
    return JSON.parse(raw) as Extract<ChallengeRecord, { ceremony: C }>;
  }

  private key(ceremony: Ceremony, challengeId: string): string {
    return `${this.prefix}:webauthn:${ceremony}:${challengeId}`;
  }
}
