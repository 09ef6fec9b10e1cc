import type pg from 'pg';
import { AppError } from '../errors/index.js';
import { findPassword, type PasswordKind } from './credentials.js';
import { verifyPassword } from './methods/argon2.js';
import type { OpaqueOnServer } from './methods/opaque-on-server.js';
import type { SignInGuard } from './sign-in-guard.js';
import { usernameKey } from './username.js';

/**
 * Proof that the person behind a session is the account's owner now, not whoever holds an old
 * or stolen access token: what turning on TOTP, adding a passkey and binding an OAuth2
 * identity need (each would let a token thief lock the owner out), as changing the password
 * does. The proof is a session that signed in within RECENT_SIGN_IN_MINUTES, or, for an
 * account with a password, that password (so it need not sign in again; an OPAQUE record is
 * checked by running both sides on the server, as a direct sign-in does). Changing the password
 * itself is stricter for an Argon2id account: it always wants the current one
 * (accounts/methods/password-change.ts).
 */
export const RECENT_SIGN_IN_MINUTES = 10;

export interface SessionUser {
  userId: string;
  username: string;
  sessionId: string;
}

export interface RecentSignInProof {
  currentPassword?: string | undefined;
}

export class RecentSignIn {
  constructor(private readonly deps: { pool: pg.Pool; guard: SignInGuard; opaqueOnServer: OpaqueOnServer }) {}

  /** `action` completes "sign in again to ...", e.g. "add a passkey". */
  async prove(user: SessionUser, proof: RecentSignInProof, client: { ip: string }, action: string): Promise<void> {
    const stored = await findPassword(this.deps.pool, user.userId);
    if (stored && proof.currentPassword !== undefined) return this.checkPassword(user, stored, proof.currentPassword, client);
    await this.requireRecent(user, action, stored ? ', or send the current password (currentPassword)' : '');
  }

  /** The session signed in within RECENT_SIGN_IN_MINUTES (what an OPAQUE re-registration needs). */
  async requireRecent(user: SessionUser, action: string, alternative = ''): Promise<void> {
    const { rows } = await this.deps.pool.query<{ recent: boolean }>(
      'SELECT created_at > now() - make_interval(mins => $2) AS recent FROM sessions WHERE id = $1',
      [user.sessionId, RECENT_SIGN_IN_MINUTES],
    );
    if (!rows[0]?.recent) {
      throw new AppError('unauthenticated', `sign in again to ${action} (a sign-in within the last ${RECENT_SIGN_IN_MINUTES} minutes is needed)${alternative}`);
    }
  }

  /** The stored password is `password`; counted like sign-in attempts, so a token thief gets no password oracle. */
  async checkPassword(user: SessionUser, stored: { kind: PasswordKind; secret: string }, password: string, client: { ip: string }): Promise<void> {
    const key = usernameKey(user.username);
    await this.deps.guard.before(key, client.ip);
    const matches = stored.kind === 'argon2' ? await verifyPassword(stored.secret, password) : await this.deps.opaqueOnServer.verify(password, key, stored.secret);
    if (!matches) {
      throw new AppError('unauthenticated', 'the current password is wrong', [{ key: 'currentPassword', message: 'is wrong' }]);
    }
    await this.deps.guard.provedAfterAll(key, client.ip);
  }
}
