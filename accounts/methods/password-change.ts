import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import { withTransaction } from '../../store/transaction.js';
import { findPassword, setPassword } from '../credentials.js';
import type { SessionStore } from '../sessions/session-store.js';
import type { SignInGuard } from '../sign-in-guard.js';
import { usernameKey } from '../username.js';
import { verifyPassword } from './argon2.js';
import { passwordSecret, type NewPassword } from './new-password.js';
import type { OpaqueMethod } from './opaque.js';

/**
 * Changing the password while signed in: re-registration under OPAQUE, a new hash under
 * Argon2id, and every other session of the account signed out.
 *
 * A stolen access token alone must not be enough. An account with an Argon2id password
 * proves the current one; otherwise (OPAQUE, whose password the server cannot check, or a
 * passkey- or provider-only account setting its first password) the session must have
 * signed in within RECENT_SIGN_IN_MINUTES, as a fresh OPAQUE login gives.
 */
export const RECENT_SIGN_IN_MINUTES = 10;

export interface PasswordChangeDeps {
  pool: pg.Pool;
  sessions: SessionStore;
  guard: SignInGuard;
  opaque: OpaqueMethod;
}

export interface ChangingUser {
  userId: string;
  username: string;
  sessionId: string;
}

export class PasswordChange {
  constructor(private readonly deps: PasswordChangeDeps) {}

  async opaqueStart(user: ChangingUser, registrationRequest: string): Promise<{ registrationResponse: string }> {
    await this.requireRecentSignIn(user);
    return this.deps.opaque.registrationResponse(usernameKey(user.username), registrationRequest);
  }

  /** Returns how many other sessions were signed out. */
  async change(user: ChangingUser, input: NewPassword & { currentPassword?: string }, client: { ip: string }): Promise<{ revokedSessions: number }> {
    const stored = await findPassword(this.deps.pool, user.userId);
    if (stored?.kind === 'argon2') {
      if (input.currentPassword === undefined) throw AppError.invalid([{ key: 'currentPassword', message: 'is required to change an existing password' }]);
      const key = usernameKey(user.username);
      await this.deps.guard.before(key, client.ip);
      if (!(await verifyPassword(stored.secret, input.currentPassword))) {
        throw new AppError('unauthenticated', 'the current password is wrong', [{ key: 'currentPassword', message: 'is wrong' }]);
      }
      await this.deps.guard.provedAfterAll(key, client.ip);
    } else {
      await this.requireRecentSignIn(user);
    }
    const credential = await passwordSecret(input, user.username);
    const revokedSessions = await withTransaction(this.deps.pool, async (db) => {
      await setPassword(db, user.userId, credential.kind, credential.secret);
      return this.deps.sessions.revokeAll(db, user.userId, 'password_changed', user.sessionId);
    });
    return { revokedSessions };
  }

  private async requireRecentSignIn(user: ChangingUser): Promise<void> {
    const { rows } = await this.deps.pool.query<{ recent: boolean }>(
      'SELECT created_at > now() - make_interval(mins => $2) AS recent FROM sessions WHERE id = $1',
      [user.sessionId, RECENT_SIGN_IN_MINUTES],
    );
    if (!rows[0]?.recent) {
      throw new AppError('unauthenticated', `sign in again to change the password (a sign-in within the last ${RECENT_SIGN_IN_MINUTES} minutes is needed)`);
    }
  }
}
