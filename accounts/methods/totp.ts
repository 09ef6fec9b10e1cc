import { generateSecret, generateURI, verify } from 'otplib';
import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { withTransaction } from '../../postgres/index.js';
import type { RateLimits } from '../rate-limits.js';
import type { SecretBox } from '../../crypto/index.js';
import type { ClientInfo, SignedIn, SignIn } from '../sign-in.js';
import type { Queryable } from '../users.js';
import { deleteRecoveryCodes, newRecoveryCodes, replaceRecoveryCodes, spendRecoveryCode } from './recovery-codes.js';

/**
 * Two-factor authentication: TOTP codes from an authenticator app (RFC 6238, via otplib) and
 * single-use recovery codes. A user preference, stored per user in totp_credentials; once
 * enabled_at is set, `SignIn.complete` answers every primary sign-in with a challenge that
 * `verifyChallenge` exchanges for a session.
 *
 * The secret is sealed with the SecretBox (it must be read back to compute codes). Each code
 * is good once: the accepted time step is kept in last_step and only a conditional update that
 * raises it accepts a code, so a replayed or concurrently reused code fails in the database,
 * not just in a check before it.
 */
export interface TotpMethodDeps {
  db: pg.Pool;
  box: SecretBox;
  signIn: SignIn;
  limits: RateLimits;
  /** The name authenticator apps show beside the username. */
  issuer: string;
}

type Client = Required<Pick<ClientInfo, 'ip'>> & ClientInfo;

const PERIOD_SECONDS = 30;
/** One step either way: phone clocks drift, and a code typed late in its step arrives in the next. */
const SKEW_STEPS = 1;
const TOTP_CODE = /^\d{6}$/;

interface StoredTotp {
  sealed: string;
  enabled: boolean;
  lastStep: number;
}

export class TotpMethod {
  constructor(private readonly deps: TotpMethodDeps) {}

  /** A new secret waiting for its first code; replaces an earlier one that never got it. */
  async setup(user: { id: string; username: string }): Promise<{ secret: string; otpauthUrl: string }> {
    const secret = generateSecret();
    // One statement, so a concurrent enable cannot be overwritten between a check and a write.
    const { rowCount } = await this.deps.db.query(
      `INSERT INTO totp_credentials (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = 0 WHERE totp_credentials.enabled_at IS NULL`,
      [user.id, this.deps.box.seal(secret, context(user.id))],
    );
    if (rowCount !== 1) throw alreadyEnabled();
    return { secret, otpauthUrl: generateURI({ issuer: this.deps.issuer, label: user.username, secret }) };
  }

  /** Turns 2FA on with the first code of the pending secret; answers the recovery codes, once. */
  async enable(userId: string, code: string, client: Client): Promise<{ recoveryCodes: string[] }> {
    const stored = await findTotp(this.deps.db, userId);
    if (stored?.enabled) throw alreadyEnabled();
    if (!stored) throw new AppError('conflict', 'no two-factor setup is waiting for its first code; call POST /api/auth/2fa/totp/setup first');
    await this.beforeCode(userId, client);
    const step = await this.matchTotp(userId, stored, code);
    const recoveryCodes = newRecoveryCodes();
    const enabled =
      step !== undefined &&
      (await withTransaction(this.deps.db, async (tx) => {
        // `secret = $2`: a setup that replaced the secret meanwhile makes this code worthless.
        const { rowCount } = await tx.query(
          `UPDATE totp_credentials SET enabled_at = now(), last_step = $3
           WHERE user_id = $1 AND secret = $2 AND enabled_at IS NULL AND last_step < $3`,
          [userId, stored.sealed, step],
        );
        if (rowCount !== 1) return false;
        await replaceRecoveryCodes(tx, userId, recoveryCodes);
        return true;
      }));
    await this.afterCode(userId, enabled);
    if (!enabled) throw wrongCodeField();
    return { recoveryCodes };
  }

  /** Turns 2FA off; proven by a TOTP code or a recovery code. */
  async disable(userId: string, code: string, client: Client): Promise<void> {
    await this.withProvenCode(userId, code, client, async (tx) => {
      await tx.query('DELETE FROM totp_credentials WHERE user_id = $1', [userId]);
      await deleteRecoveryCodes(tx, userId);
    });
  }

  /** A new set of recovery codes; the old set, used or not, stops working. */
  async regenerateRecoveryCodes(userId: string, code: string, client: Client): Promise<{ recoveryCodes: string[] }> {
    const recoveryCodes = newRecoveryCodes();
    await this.withProvenCode(userId, code, client, (tx) => replaceRecoveryCodes(tx, userId, recoveryCodes));
    return { recoveryCodes };
  }

  /** The second step of a sign-in: a code for the challenge's user opens the session. */
  async verifyChallenge(input: { challengeToken: string; code: string }, client: Client): Promise<SignedIn> {
    // The address is counted before the challenge is even looked up, so guessing challenge
    // tokens costs the same budget as guessing codes.
    await this.deps.limits.consume('codesPerIp', client.ip, 'codes tried from this address');
    const { userId } = await this.deps.signIn.peekChallenge(input.challengeToken);
    await this.deps.limits.attempt('codeFailuresPerAccount', userId, 'wrong codes for this account');
    const stored = await findTotp(this.deps.db, userId);
    // Not enabled (turned off since the challenge was made): no code can pass.
    const ok = stored?.enabled === true && (await this.spend(this.deps.db, userId, stored, input.code));
    await this.afterCode(userId, ok);
    if (!ok) throw new AppError('unauthenticated', 'the code is wrong or was already used');
    return this.deps.signIn.finishChallenge(input.challengeToken, client);
  }

  /** Runs `change` in the transaction that spends the code, so a failed change leaves the code unspent. */
  private async withProvenCode(userId: string, typed: string, client: Client, change: (tx: pg.PoolClient) => Promise<void>): Promise<void> {
    const stored = await findTotp(this.deps.db, userId);
    if (!stored?.enabled) throw new AppError('conflict', 'two-factor authentication is not enabled for this account');
    await this.beforeCode(userId, client);
    const ok = await withTransaction(this.deps.db, async (tx) => {
      if (!(await this.spend(tx, userId, stored, typed))) return false;
      await change(tx);
      return true;
    });
    await this.afterCode(userId, ok);
    if (!ok) throw wrongCodeField();
  }

  /** Accepts a TOTP code or a recovery code of an enabled credential, spending it. */
  private async spend(db: Queryable, userId: string, stored: StoredTotp, typed: string): Promise<boolean> {
    const step = await this.matchTotp(userId, stored, typed);
    if (step === undefined) return spendRecoveryCode(db, userId, typed);
    // The real replay check: of two requests with one code, only the first raises last_step.
    const { rowCount } = await db.query(
      'UPDATE totp_credentials SET last_step = $3 WHERE user_id = $1 AND secret = $2 AND enabled_at IS NOT NULL AND last_step < $3',
      [userId, stored.sealed, step],
    );
    return rowCount === 1;
  }

  /** The time step a TOTP code belongs to, if it is valid now (± skew) and newer than the last one accepted. */
  private async matchTotp(userId: string, stored: StoredTotp, typed: string): Promise<number | undefined> {
    const token = typed.replace(/\s/g, '');
    if (!TOTP_CODE.test(token)) return undefined;
    const epoch = Math.floor(Date.now() / 1000);
    // otplib throws when afterTimeStep lies past its window; such a row accepts nothing in it anyway.
    if (stored.lastStep >= Math.floor(epoch / PERIOD_SECONDS) + SKEW_STEPS) return undefined;
    const result = await verify({
      secret: this.deps.box.openText(stored.sealed, context(userId)),
      token,
      epoch,
      period: PERIOD_SECONDS,
      epochTolerance: PERIOD_SECONDS * SKEW_STEPS,
      afterTimeStep: stored.lastStep,
    });
    // The functional API types HOTP and TOTP results as one union; only TOTP's has timeStep.
    return result.valid && 'timeStep' in result ? result.timeStep : undefined;
  }

  /**
   * A code is counted as wrong before it is judged (atomically in Redis), so concurrent guesses
   * cannot all pass a check made before any was counted; `afterCode` clears the count on a right one.
   */
  private async beforeCode(userId: string, client: Client): Promise<void> {
    await this.deps.limits.consume('codesPerIp', client.ip, 'codes tried from this address');
    await this.deps.limits.attempt('codeFailuresPerAccount', userId, 'wrong codes for this account');
  }

  private async afterCode(userId: string, ok: boolean): Promise<void> {
    if (ok) await this.deps.limits.reset('codeFailuresPerAccount', userId);
  }
}

async function findTotp(db: Queryable, userId: string): Promise<StoredTotp | undefined> {
  const { rows } = await db.query<{ secret: string; enabled: boolean; last_step: string }>(
    'SELECT secret, enabled_at IS NOT NULL AS enabled, last_step FROM totp_credentials WHERE user_id = $1',
    [userId],
  );
  const row = rows[0];
  return row && { sealed: row.secret, enabled: row.enabled, lastStep: Number(row.last_step) };
}

/** The SecretBox context: a sealed secret copied to another user's row does not open there. */
function context(userId: string): string {
  return `totp:${userId}`;
}

function alreadyEnabled(): AppError {
  return new AppError('conflict', 'two-factor authentication is already enabled; disable it first to set up a new authenticator');
}

/** A signed-in user's wrong code is a bad field, not a bad session (401 would make clients sign out). */
function wrongCodeField(): AppError {
  return new AppError('invalid_argument', 'code: is wrong or was already used', [{ key: 'code', message: 'is wrong or was already used' }]);
}
