import { AppError } from '../../errors/app-error.js';
import { findPasswordAccount } from '../credentials.js';
import { checkPassword } from '../password-policy.js';
import { reviewError, signupDisabled, signupPolicy, type Registration, type SignupOutcome } from '../registration.js';
import type { ClientInfo, SignIn, SignInResult } from '../sign-in.js';
import type { SignInGuard } from '../sign-in-guard.js';
import type { Queryable } from '../users.js';
import { parseUsername } from '../username.js';
import type { RuntimeSettings } from '../../settings/runtime-settings.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './argon2.js';

/**
 * Direct password transport, for clients that cannot run OPAQUE: the password crosses TLS to
 * the server, which keeps only its Argon2id hash.
 */
export interface PasswordMethodDeps {
  db: Queryable;
  settings: RuntimeSettings;
  registration: Registration;
  signIn: SignIn;
  guard: SignInGuard;
}

export const INVALID_CREDENTIALS = 'invalid username or password';

export class PasswordMethod {
  constructor(private readonly deps: PasswordMethodDeps) {}

  async register(input: { username: string; password: string; displayName?: string }, client: Required<Pick<ClientInfo, 'ip'>> & ClientInfo): Promise<SignupOutcome> {
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
   * Unknown usernames, OPAQUE-only accounts and wrong passwords are one answer after the same
   * amount of hashing work. Review state is told only to whoever proves the password.
   */
  async login(input: { username: string; password: string }, client: Required<Pick<ClientInfo, 'ip'>> & ClientInfo): Promise<SignInResult> {
    const key = accountKey(input.username);
    await this.deps.guard.before(key, client.ip);
    let account = await findPasswordAccount(this.deps.db, key);
    if (!account) {
      const review = await this.deps.registration.openOrRejectedReview({ usernameKey: key });
      const credential = review?.account.credential;
      if (review && credential?.type === 'password' && credential.kind === 'argon2') {
        if (await verifyPassword(credential.secret, input.password)) {
          await this.deps.guard.provedAfterAll(key, client.ip);
          throw reviewError(review);
        }
        throw new AppError('unauthenticated', INVALID_CREDENTIALS);
      }
      // No open review: it may have been approved between the two reads.
      if (!review) account = await findPasswordAccount(this.deps.db, key);
    }
    if (account?.password?.kind === 'argon2') {
      if (await verifyPassword(account.password.secret, input.password)) {
        await this.deps.guard.provedAfterAll(key, client.ip);
        return this.deps.signIn.complete(account.user, 'password', client, account.secondFactor);
      }
    } else {
      await verifyAgainstDummy(input.password);
    }
    // The failure was counted in advance (guard.before).
    throw new AppError('unauthenticated', INVALID_CREDENTIALS);
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
