import type pg from 'pg';
import { AppError } from '../errors/index.js';
import type { RuntimeSettings } from '../settings/index.js';
import { advisoryLockNamespaces } from '../postgres/index.js';
import { recordNotification } from '../notifications/index.js';
import { withTransaction } from '../postgres/index.js';
import { registrationReviewId } from '../workflows/index.js';
import { insertInitialCredential, type InitialCredential } from './credentials.js';
import type { SignupMode, User } from './model.js';
import type { SecretBox } from '../crypto/index.js';
import { findUserByReview, insertUser, type Queryable } from './users.js';

/**
 * Creating accounts: directly, or through a registration review when the mode's `*NeedReview`
 * flag is on. A pending review claims its username (so nobody else can take it meanwhile) and
 * holds what approval needs, sealed. Approval creates the account exactly once, however often
 * the workflow's activity is retried.
 */
export interface PendingAccount {
  username: string;
  usernameKey: string;
  displayName: string;
  email?: string;
  credential: InitialCredential;
}

/**
 * Starts the review workflow, idempotent per mode and subject key (the workflow id is
 * `registrationReviewId(mode, subjectKey)`). `ReviewClient` in workflows/ implements it over Temporal.
 */
export interface ReviewStarter {
  startRegistrationReview(input: {
    mode: SignupMode;
    subjectKey: string;
    username: string;
    sealedPayload: string;
    requestedAt: Date;
    ttlMs: number;
  }): Promise<unknown>;
}

export type SignupOutcome = { kind: 'created'; user: User } | { kind: 'pending_review'; reviewId: string };

export interface RegistrationDeps {
  pool: pg.Pool;
  box: SecretBox;
  settings: RuntimeSettings;
  reviews: ReviewStarter;
  reviewTtlMs: number;
}

/** The runtime settings that govern each mode; OAuth2 instances carry their own flags. */
export function signupPolicy(settings: RuntimeSettings, mode: Exclude<SignupMode, 'oauth2'>): { enabled: boolean; needReview: boolean } {
  switch (mode) {
    case 'password':
      return { enabled: settings.get('user.enablePasswordSignup'), needReview: settings.get('user.passwordSignupNeedReview') };
    case 'email':
      return { enabled: settings.get('user.enableEmailSignup'), needReview: settings.get('user.emailSignupNeedReview') };
    case 'webauthn':
      return { enabled: settings.get('user.enableWebauthnSignup'), needReview: settings.get('user.webauthnSignupNeedReview') };
  }
}

export function signupDisabled(mode: string, setting: string): AppError {
  return new AppError('signup_disabled', `${mode} signup is disabled on this server (runtime setting ${setting})`);
}

export class Registration {
  constructor(private readonly deps: RegistrationDeps) {}

  /**
   * Creates the account, or files it for review. `externalKey` names the passkey or provider
   * identity for modes where sign-in finds a pending review by it rather than by username.
   */
  async signup(mode: SignupMode, account: PendingAccount, options: { needReview: boolean; externalKey?: string }): Promise<SignupOutcome> {
    if (!options.needReview) {
      const user = await withTransaction(this.deps.pool, async (client) => {
        await lockUsername(client, account.usernameKey);
        await ensureNoPendingReview(client, account);
        return createAccount(client, this.deps.box, account, {});
      });
      return { kind: 'created', user };
    }

    const subjectKey = mode === 'oauth2' && options.externalKey ? options.externalKey : account.usernameKey;
    const reviewId = registrationReviewId(mode, subjectKey);
    const sealedPayload = this.deps.box.seal(JSON.stringify(account), reviewContext(reviewId));
    const filed = await withTransaction(this.deps.pool, async (client) => {
      await lockUsername(client, account.usernameKey);
      const pending = await client.query<{ id: string; payload: string; created_at: Date }>(
        "SELECT id, payload, created_at FROM registration_reviews WHERE username_key = $1 AND state = 'pending'",
        [account.usernameKey],
      );
      const existing = pending.rows[0];
      if (existing) {
        if (existing.id !== reviewId) throw taken(account.username);
        // The same request again (a retry): keep the original payload and its review.
        return { payload: existing.payload, requestedAt: existing.created_at };
      }
      const user = await client.query('SELECT 1 FROM users WHERE username_key = $1', [account.usernameKey]);
      if ((user.rowCount ?? 0) > 0) throw taken(account.username);
      const { rows } = await client.query<{ created_at: Date }>(
        `INSERT INTO registration_reviews (id, mode, username, username_key, external_key, state, payload)
         VALUES ($1, $2, $3, $4, $5, 'pending', $6)
         ON CONFLICT (id) DO UPDATE SET state = 'pending', username = EXCLUDED.username, username_key = EXCLUDED.username_key,
           external_key = EXCLUDED.external_key, payload = EXCLUDED.payload, reviewer = NULL, reason = NULL, user_id = NULL,
           created_at = now(), decided_at = NULL
         RETURNING created_at`,
        [reviewId, mode, account.username, account.usernameKey, options.externalKey ?? null, sealedPayload],
      );
      return { payload: sealedPayload, requestedAt: rows[0]!.created_at };
    });
    // After commit: when this fails the row stays pending and a retried signup starts it again.
    await this.deps.reviews.startRegistrationReview({
      mode,
      subjectKey,
      username: account.username,
      sealedPayload: filed.payload,
      requestedAt: filed.requestedAt,
      ttlMs: this.deps.reviewTtlMs,
    });
    return { kind: 'pending_review', reviewId };
  }

  /** The most recent review of a username or external key that did not end in an account. */
  async openOrRejectedReview(by: { usernameKey?: string; externalKey?: string }): Promise<ReviewState | undefined> {
    const column = by.usernameKey !== undefined ? 'username_key' : 'external_key';
    const value = by.usernameKey ?? by.externalKey;
    if (value === undefined) return undefined;
    const { rows } = await this.deps.pool.query<{ id: string; state: 'pending' | 'rejected'; reason: string | null; payload: string }>(
      `SELECT id, state, reason, payload FROM registration_reviews
        WHERE ${column} = $1 AND state IN ('pending', 'rejected') ORDER BY created_at DESC LIMIT 1`,
      [value],
    );
    const row = rows[0];
    if (!row) return undefined;
    const account = JSON.parse(this.deps.box.openText(row.payload, reviewContext(row.id))) as PendingAccount;
    return { reviewId: row.id, state: row.state, reason: row.reason, account };
  }

  // The decisions below are the activities of the registration-review workflow.

  /** Creates the reviewed account once; a retry after success returns the same user. */
  async approve(input: { reviewId: string; sealedPayload: string; reviewer: string; reason?: string }): Promise<{ userId: string }> {
    return withTransaction(this.deps.pool, async (client) => {
      // The row lock first: a concurrent retry waits here and then finds the account.
      const review = await lockReview(client, input.reviewId);
      const done = await findUserByReview(client, input.reviewId);
      if (done) return { userId: done.id };
      if (review.state !== 'pending') throw new AppError('conflict', `review ${input.reviewId} is ${review.state}, not pending`);
      const account = JSON.parse(this.deps.box.openText(input.sealedPayload, reviewContext(input.reviewId))) as PendingAccount;
      await lockUsername(client, account.usernameKey);
      const user = await createAccount(client, this.deps.box, account, { reviewId: input.reviewId });
      await client.query(
        "UPDATE registration_reviews SET state = 'approved', reviewer = $2, reason = $3, user_id = $4, decided_at = now(), payload = '' WHERE id = $1",
        [input.reviewId, input.reviewer, input.reason ?? null, user.id],
      );
      // The new account's first sign-in finds it in the inbox.
      await recordNotification(client, user.id, {
        kind: 'review.decided',
        review: 'registration',
        approved: true,
        ...(input.reason ? { reason: input.reason } : {}),
      });
      return { userId: user.id };
    });
  }

  async reject(input: { reviewId: string; reviewer: string; reason: string }): Promise<void> {
    await this.decide(input.reviewId, 'rejected', input.reviewer, input.reason);
  }

  async expire(input: { reviewId: string }): Promise<void> {
    await this.decide(input.reviewId, 'expired', 'system:expiry', 'the review expired before anyone decided');
  }

  private async decide(reviewId: string, state: 'rejected' | 'expired', reviewer: string, reason: string): Promise<void> {
    await withTransaction(this.deps.pool, async (client) => {
      const review = await lockReview(client, reviewId);
      if (review.state === state) return;
      if (review.state !== 'pending') throw new AppError('conflict', `review ${reviewId} is ${review.state}, not pending`);
      // A rejected request keeps its sealed payload so its owner, proving the password, learns the reason.
      await client.query(
        `UPDATE registration_reviews SET state = $2, reviewer = $3, reason = $4, decided_at = now(),
           payload = CASE WHEN $2 = 'expired' THEN '' ELSE payload END WHERE id = $1`,
        [reviewId, state, reviewer, reason],
      );
    });
  }
}

export interface ReviewState {
  reviewId: string;
  state: 'pending' | 'rejected';
  reason: string | null;
  account: PendingAccount;
}

/** The error a sign-in gets for an account still under review or rejected. */
export function reviewError(review: ReviewState): AppError {
  if (review.state === 'pending') return new AppError('review_pending', `your signup is waiting for review (review ${review.reviewId})`);
  const reason = review.reason ? `: ${review.reason}` : '';
  return new AppError('review_rejected', `your signup was rejected by a reviewer${reason}`);
}

async function createAccount(db: Queryable, box: SecretBox, account: PendingAccount, options: { reviewId?: string }): Promise<User> {
  const user = await insertUser(db, {
    username: account.username,
    usernameKey: account.usernameKey,
    displayName: account.displayName,
    email: account.email ?? null,
    ...(options.reviewId ? { reviewId: options.reviewId } : {}),
  });
  await insertInitialCredential(db, box, user.id, account.credential);
  return user;
}

async function lockUsername(db: Queryable, usernameKey: string): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [advisoryLockNamespaces.username, usernameKey]);
}

async function ensureNoPendingReview(db: Queryable, account: PendingAccount): Promise<void> {
  const { rowCount } = await db.query("SELECT 1 FROM registration_reviews WHERE username_key = $1 AND state = 'pending'", [account.usernameKey]);
  if ((rowCount ?? 0) > 0) throw taken(account.username);
}

async function lockReview(db: Queryable, reviewId: string): Promise<{ state: string }> {
  const { rows } = await db.query<{ state: string }>('SELECT state FROM registration_reviews WHERE id = $1 FOR UPDATE', [reviewId]);
  const row = rows[0];
  if (!row) throw new AppError('not_found', `no registration review ${reviewId}`);
  return row;
}

function reviewContext(reviewId: string): string {
  return `registration-review:${reviewId}`;
}

function taken(username: string): AppError {
  return new AppError('conflict', `username "${username}" is taken`, [{ key: 'username', message: 'is taken' }]);
}
