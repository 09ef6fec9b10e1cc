import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { withTransaction } from '../../postgres/index.js';
import { findPassword, setPassword } from '../credentials.js';
import type { RecentSignIn, SessionUser } from '../recent-sign-in.js';
import type { SessionStore } from '../sessions/session-store.js';
import { usernameKey } from '../username.js';
import { passwordSecret, type NewPassword } from './new-password.js';
import type { OpaqueMethod } from './opaque.js';

/**
 * Changing the password while signed in: re-registration under OPAQUE, a new hash under
 * Argon2id, and every other session of the account signed out.
 *
 * A stolen access token alone must not be enough. An account with an Argon2id password
 * proves the current one; otherwise (OPAQUE, whose password the server cannot check, or a
 * passkey- or provider-only account setting its first password) the session must have
 * signed in recently (accounts/recent-sign-in.ts), as a fresh OPAQUE login gives.
 */
export interface PasswordChangeDeps {
  pool: pg.Pool;
  sessions: SessionStore;
  recentSignIn: RecentSignIn;
  opaque: OpaqueMethod;
}

export type ChangingUser = SessionUser;

const ACTION = 'change the password';

export class PasswordChange {
  constructor(private readonly deps: PasswordChangeDeps) {}

  async opaqueStart(user: ChangingUser, registrationRequest: string): Promise<{ registrationResponse: string }> {
    await this.deps.recentSignIn.requireRecent(user, ACTION);
    return this.deps.opaque.registrationResponse(usernameKey(user.username), registrationRequest);
  }

  /** Returns how many other sessions were signed out. */
  async change(user: ChangingUser, input: NewPassword & { currentPassword?: string | undefined }, client: { ip: string }): Promise<{ revokedSessions: number }> {
    const stored = await findPassword(this.deps.pool, user.userId);
    if (stored && input.currentPassword !== undefined) {
      await this.deps.recentSignIn.checkPassword(user, stored, input.currentPassword, client);
    } else if (stored?.kind === 'argon2') {
      throw AppError.invalid([{ key: 'currentPassword', message: 'is required to change an existing password' }]);
    } else {
      await this.deps.recentSignIn.requireRecent(user, ACTION);
    }
    const credential = await passwordSecret(input, user.username);
    const revokedSessions = await withTransaction(this.deps.pool, async (db) => {
      await setPassword(db, user.userId, credential.kind, credential.secret);
      return this.deps.sessions.revokeAll(db, user.userId, 'password_changed', user.sessionId);
    });
    this.deps.sessions.announce({ scope: 'user', userId: user.userId, keep: user.sessionId, reason: 'password_changed' });
    return { revokedSessions };
  }
}
