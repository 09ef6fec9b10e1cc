import { AppError } from '../../errors/index.js';
import { findPasswordAccount, type PasswordKind } from '../credentials.js';
import { checkPassword } from '../password-policy.js';
import { reviewError, signupDisabled, signupPolicy, type Registration, type SignupOutcome } from '../registration.js';
import type { ClientInfo, SignIn, SignInResult } from '../sign-in.js';
import type { SignInGuard } from '../sign-in-guard.js';
import type { Queryable } from '../users.js';
import { parseUsername } from '../username.js';
import type { RuntimeSettings } from '../../settings/index.js';
import type { Logger } from '../../observability/index.js';
import { hashPassword, verifyPassword } from './argon2.js';
import type { OpaqueOnServer } from './opaque-on-server.js';

/**
 * Direct password transport, for clients that cannot run OPAQUE: the password crosses TLS to
 * the server. A signup here keeps its Argon2id hash; a sign-in checks whichever credential the
 * account has: an OPAQUE record by running OPAQUE itself with the password (opaque-on-server.ts),
 * an Argon2id hash by verifying it and then upgrading the account to an OPAQUE record, so that
 * the web page's one sign-in button (OPAQUE) works for it from then on.
 * Decisions: docs/2026-11-26-one-sign-in-button.md.
 */
export interface PasswordMethodDeps {
  db: Queryable;
  settings: RuntimeSettings;
  registration: Registration;
  signIn: SignIn;
  guard: SignInGuard;
  opaqueOnServer: OpaqueOnServer;
  logger?: Logger;
}

export const INVALID_CREDENTIALS = 'invalid username or password';

export class PasswordMethod {
  constructor(private readonly deps: PasswordMethodDeps) {}

  async register(input: { username: string; password: string; displayName?: string | undefined }, client: Required<Pick<ClientInfo, 'ip'>> & ClientInfo): Promise<SignupOutcome> {
    const policy = signupPolicy(this.deps.settings, 'password');
    if (!policy.enabled) throw signupDisabled('password', 'user.enablePasswordSignup');
    await this.deps.guard.signup(client.ip);
    const username = parseUsername(input.username);
    checkPassword(input.password, username.name);
    const secret = await hashPassword(input.password);
    return this.deps.registration.signup(
      'password',
      {
        username: username.name,
        usernameKey: username.key,
        displayName: input.displayName?.trim() || username.name,
        credential: { type: 'password', kind: 'argon2', secret },
      },
      { needReview: policy.needReview },
    );
  }

  /**
   * Unknown usernames and wrong passwords are one answer; an unknown username spends the work
   * of an OPAQUE check against the library's fake record, as an OPAQUE account does. Review
   * state is told only to whoever proves the password.
   */
  async login(input: { username: string; password: string }, client: Required<Pick<ClientInfo, 'ip'>> & ClientInfo): Promise<SignInResult> {
    const key = accountKey(input.username);
    await this.deps.guard.before(key, client.ip);
    let account = await findPasswordAccount(this.deps.db, key);
    if (!account) {
      const review = await this.deps.registration.openOrRejectedReview({ usernameKey: key });
      const credential = review?.account.credential;
      if (review && credential?.type === 'password') {
        if (await this.matches(key, credential, input.password)) {
          await this.deps.guard.provedAfterAll(key, client.ip);
          throw reviewError(review);
        }
        throw new AppError('unauthenticated', INVALID_CREDENTIALS);
      }
      // No open review: it may have been approved between the two reads.
      if (!review) account = await findPasswordAccount(this.deps.db, key);
    }
    const password = account?.password;
    if (account && password && (await this.matches(key, password, input.password))) {
      await this.deps.guard.provedAfterAll(key, client.ip);
      if (password.kind === 'argon2') await this.upgrade(account.user.id, key, password.secret, input.password);
      return this.deps.signIn.complete(account.user, 'password', client, account.secondFactor);
    }
    if (!password) await this.deps.opaqueOnServer.verify(input.password, key, null);
    // The failure was counted in advance (guard.before).
    throw new AppError('unauthenticated', INVALID_CREDENTIALS);
  }

  private matches(key: string, credential: { kind: PasswordKind; secret: string }, password: string): Promise<boolean> {
    return credential.kind === 'argon2' ? verifyPassword(credential.secret, password) : this.deps.opaqueOnServer.verify(password, key, credential.secret);
  }

  /**
   * Replaces the proven Argon2id hash by an OPAQUE record of the same password, in one
   * statement that applies only while the hash is still the one proven (a reset or change in
   * between wins). A failure here does not fail the sign-in: the next one tries again.
   */
  private async upgrade(userId: string, key: string, provenHash: string, password: string): Promise<void> {
    try {
      const record = await this.deps.opaqueOnServer.register(password, key);
      await this.deps.db.query(
        `UPDATE password_credentials SET kind = 'opaque', secret = $3, updated_at = now()
          WHERE user_id = $1 AND kind = 'argon2' AND secret = $2`,
        [userId, provenHash, record],
      );
    } catch (err) {
      this.deps.logger?.warn({ err, userId }, 'could not upgrade an Argon2id password to OPAQUE; the next sign-in tries again');
    }
  }
}

/** The rate-limit key of a typed username, valid or not (an invalid one must be limited too). */
export function accountKey(typed: string): string {
  try {
    return parseUsername(typed).key;
  } catch {
    return typed.normalize('NFKC').toLowerCase().slice(0, 64);
  }
}
