import type { Redis } from 'ioredis';
import type pg from 'pg';
import { AppError } from '../errors/index.js';
import type { SecondFactorRequired } from '../contracts/http/sign-in-answers.js';
import type { User } from './model.js';
import type { AccessTokens } from './sessions/access-tokens.js';
import type { SessionStore } from './sessions/session-store.js';
import { findUserById } from './users.js';
import { OneTimeStore } from './one-time-store.js';

/**
 * The last step every primary method shares: refuse banned accounts, ask for the second
 * factor when the user turned it on, and otherwise open a session.
 */
export interface ClientInfo {
  userAgent?: string;
  ip?: string;
}

export interface SignedIn {
  status: 'signed_in';
  user: User;
  sessionId: string;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresAt: Date;
}

/** The sign-in endpoints' answer (contracts/http/sign-in-answers.ts): `challengeToken` proves the first factor passed and is exchanged with a code at /api/auth/2fa/verify. */
export type { SecondFactorRequired };

export type SignInResult = SignedIn | SecondFactorRequired;

export interface GuestSignedIn {
  status: 'signed_in';
  guest: { id: string; displayName: string };
  sessionId: string;
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresAt: Date;
}

interface Challenge {
  userId: string;
  method: string;
}

const CHALLENGE_TTL_SECONDS = 300;

export class SignIn {
  private readonly challenges: OneTimeStore<Challenge>;

  constructor(
    private readonly deps: { pool: pg.Pool; redis: Redis; sessions: SessionStore; tokens: AccessTokens; prefix?: string },
  ) {
    this.challenges = new OneTimeStore(deps.redis, `${deps.prefix ?? 'svc'}:2fa-challenge`, CHALLENGE_TTL_SECONDS, 32);
  }

  /** `secondFactor`: whether TOTP is on, when the caller read it already (else it is looked up). */
  async complete(user: User, method: string, client: ClientInfo, secondFactor?: boolean): Promise<SignInResult> {
    if (user.state === 'banned') throw banned();
    if (secondFactor ?? (await this.hasSecondFactor(user.id))) {
      const challengeToken = await this.challenges.put({ userId: user.id, method });
      return { status: 'second_factor_required', challengeToken, methods: ['totp', 'recovery_code'] };
    }
    return this.open(user, method, client);
  }

  /** The user a second-factor challenge stands for, without spending it. */
  async peekChallenge(challengeToken: string): Promise<{ userId: string; method: string }> {
    return (await this.challenges.peek(challengeToken)) ?? throwChallengeGone();
  }

  /** Spends a challenge after its code was verified and opens the session. */
  async finishChallenge(challengeToken: string, client: ClientInfo): Promise<SignedIn> {
    const challenge = (await this.challenges.take(challengeToken)) ?? throwChallengeGone();
    const user = await findUserById(this.deps.pool, challenge.userId);
    if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
    if (user.state === 'banned') throw banned();
    return this.open(user, `${challenge.method}+2fa`, client);
  }

  async guest(displayName: string, client: ClientInfo): Promise<GuestSignedIn> {
    const session = await this.deps.sessions.create({ guestName: displayName, method: 'guest', ...client });
    const accessToken = await this.deps.tokens.sign({ sub: `guest:${session.sessionId}`, sid: session.sessionId, guest: true });
    return {
      status: 'signed_in',
      guest: { id: `guest:${session.sessionId}`, displayName },
      sessionId: session.sessionId,
      accessToken,
      expiresIn: this.deps.tokens.ttlSeconds,
      refreshToken: session.refreshToken,
      refreshExpiresAt: session.expiresAt,
    };
  }

  /** Exchanges a refresh token for a new access token and the next refresh token. */
  async refresh(refreshToken: string): Promise<{ sessionId: string; accessToken: string; expiresIn: number; refreshToken: string; refreshExpiresAt: Date }> {
    const rotated = await this.deps.sessions.rotate(refreshToken);
    const sub = rotated.userId ?? `guest:${rotated.sessionId}`;
    const accessToken = await this.deps.tokens.sign({ sub, sid: rotated.sessionId, ...(rotated.userId === null ? { guest: true } : {}) });
    return {
      sessionId: rotated.sessionId,
      accessToken,
      expiresIn: this.deps.tokens.ttlSeconds,
      refreshToken: rotated.refreshToken,
      refreshExpiresAt: rotated.expiresAt,
    };
  }

  private async open(user: User, method: string, client: ClientInfo): Promise<SignedIn> {
    const session = await this.deps.sessions.create({ userId: user.id, method, ...client });
    const accessToken = await this.deps.tokens.sign({ sub: user.id, sid: session.sessionId });
    return {
      status: 'signed_in',
      user,
      sessionId: session.sessionId,
      accessToken,
      expiresIn: this.deps.tokens.ttlSeconds,
      refreshToken: session.refreshToken,
      refreshExpiresAt: session.expiresAt,
    };
  }

  private async hasSecondFactor(userId: string): Promise<boolean> {
    const { rowCount } = await this.deps.pool.query('SELECT 1 FROM totp_credentials WHERE user_id = $1 AND enabled_at IS NOT NULL', [userId]);
    return (rowCount ?? 0) > 0;
  }
}

function throwChallengeGone(): never {
  throw new AppError('unauthenticated', 'the sign-in challenge is unknown or expired; sign in again');
}

export function banned(): AppError {
  return new AppError('account_banned', 'this account is banned');
}
