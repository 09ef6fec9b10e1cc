import { createHash } from 'node:crypto';
import * as opaque from '@serenity-kit/opaque';
import type { Redis } from 'ioredis';
import { AppError } from '../../errors/index.js';
import type { RuntimeSettings } from '../../settings/index.js';
import { findPasswordAccount } from '../credentials.js';
import { reviewError, signupDisabled, signupPolicy, type Registration, type ReviewState, type SignupOutcome } from '../registration.js';
import type { ClientInfo, SignIn, SignInResult } from '../sign-in.js';
import type { SignInGuard } from '../sign-in-guard.js';
import type { Queryable } from '../users.js';
import { parseUsername } from '../username.js';
import { checkOpaqueRecord } from './opaque-record.js';
import { accountKey, INVALID_CREDENTIALS } from './password.js';
import { OneTimeStore } from '../one-time-store.js';

/**
 * OPAQUE (RFC 9807) with @serenity-kit/opaque: the password never leaves the client. The
 * server keeps a registration record per user and, between the two login messages, the
 * login state in Redis so `finish` may land on any gateway replica.
 *
 * A username with no OPAQUE record gets the library's fake-record response: the client
 * cannot tell it from a wrong password, and the server spends the same work. The one exception
 * is an account whose password is still only an Argon2id hash (set before the CLI made OPAQUE
 * records, or by a direct-transport signup): login/start also says `useDirectPassword`, so the
 * page signs in once through the direct transport, which upgrades the account to OPAQUE
 * (password.ts). Why that hint is acceptable: docs/2026-11-26-one-sign-in-button.md.
 */
export interface OpaqueMethodDeps {
  db: Queryable;
  redis: Redis;
  serverSetup: string;
  settings: RuntimeSettings;
  registration: Registration;
  signIn: SignIn;
  guard: SignInGuard;
  prefix?: string;
}

const LOGIN_STATE_TTL_SECONDS = 60;
/** Between register/start and register/finish the client derives its keys (Argon2id in the browser). */
const REGISTRATION_STATE_TTL_SECONDS = 5 * 60;

/** What register/start leaves for the finish of the same username. */
interface PendingRegistration {
  ip: string;
}

interface PendingLogin {
  serverLoginState: string;
  accountKey: string;
  ip: string;
  userId?: string;
  /** Which record the login was started against: a password reset or change in between voids it. */
  recordDigest?: string;
  reviewUsernameKey?: string;
}

export class OpaqueMethod {
  private readonly logins: OneTimeStore<PendingLogin>;
  /**
   * One entry per username whose registration was started: the signup limit is counted at
   * start, so a finish must spend a start of its own username (once) or every signup limit
   * and review would be skipped by calling finish alone.
   */
  private readonly registrations: OneTimeStore<PendingRegistration>;

  constructor(private readonly deps: OpaqueMethodDeps) {
    this.logins = new OneTimeStore(deps.redis, `${deps.prefix ?? 'svc'}:opaque-login`, LOGIN_STATE_TTL_SECONDS);
    this.registrations = new OneTimeStore(deps.redis, `${deps.prefix ?? 'svc'}:opaque-register`, REGISTRATION_STATE_TTL_SECONDS);
  }

  async registerStart(input: { username: string; registrationRequest: string }, client: { ip: string }): Promise<{ registrationResponse: string }> {
    this.requireSignup();
    const key = parseUsername(input.username).key;
    await this.deps.guard.signup(client.ip);
    const answer = await this.registrationResponse(key, input.registrationRequest);
    await this.registrations.putAt(key, { ip: client.ip });
    return answer;
  }

  /**
   * The server's registration message for an account key, with no gate of its own: callers
   * (signup, email confirmation, reset, change) decide who may set a password first.
   */
  async registrationResponse(usernameKey: string, registrationRequest: string): Promise<{ registrationResponse: string }> {
    await opaque.ready;
    return guardInput('registrationRequest', () =>
      opaque.server.createRegistrationResponse({ serverSetup: this.deps.serverSetup, userIdentifier: usernameKey, registrationRequest }),
    );
  }

  async registerFinish(input: { username: string; registrationRecord: string; displayName?: string | undefined }): Promise<SignupOutcome> {
    const policy = this.requireSignup();
    const username = parseUsername(input.username);
    await checkOpaqueRecord(input.registrationRecord);
    if (!(await this.registrations.take(username.key))) {
      throw new AppError('unauthenticated', 'no registration was started for this username, or it expired or was already finished; call register/start again');
    }
    return this.deps.registration.signup(
      'password',
      {
        username: username.name,
        usernameKey: username.key,
        displayName: input.displayName?.trim() || username.name,
        credential: { type: 'password', kind: 'opaque', secret: input.registrationRecord },
      },
      { needReview: policy.needReview },
    );
  }

  async loginStart(input: { username: string; startLoginRequest: string }, client: { ip: string }): Promise<{ loginId: string; loginResponse: string; useDirectPassword?: true }> {
    const key = accountKey(input.username);
    await this.deps.guard.attempt(client.ip);
    // Counted as a failure until finish proves the password: a wrong password never reaches finish.
    let [, account] = await Promise.all([this.deps.guard.failedInAdvance(key, client.ip), findPasswordAccount(this.deps.db, key)]);
    let record: string | null = null;
    let review: ReviewState | undefined;
    let legacy = false;
    if (!account) {
      review = await this.deps.registration.openOrRejectedReview({ usernameKey: key });
      const credential = review?.account.credential;
      legacy = credential?.type === 'password' && credential.kind === 'argon2';
      if (credential?.type === 'password' && credential.kind === 'opaque') record = credential.secret;
      // No open review: it may have been approved between the two reads.
      else if (!review) account = await findPasswordAccount(this.deps.db, key);
      else review = undefined;
    }
    if (account?.password?.kind === 'opaque') record = account.password.secret;
    if (account?.password?.kind === 'argon2') legacy = true;
    const user = account?.user;
    await opaque.ready;
    const { serverLoginState, loginResponse } = guardInput('startLoginRequest', () =>
      opaque.server.startLogin({ serverSetup: this.deps.serverSetup, userIdentifier: key, registrationRecord: record, startLoginRequest: input.startLoginRequest }),
    );
    const loginId = await this.logins.put({
      serverLoginState,
      accountKey: key,
      ip: client.ip,
      ...(record !== null && user ? { userId: user.id, recordDigest: digest(record) } : {}),
      ...(review ? { reviewUsernameKey: key } : {}),
    });
    return { loginId, loginResponse, ...(legacy ? { useDirectPassword: true as const } : {}) };
  }

  async loginFinish(input: { loginId: string; finishLoginRequest: string }, client: ClientInfo): Promise<SignInResult> {
    const pending = await this.logins.take(input.loginId);
    if (!pending) throw new AppError('unauthenticated', 'the login is unknown or expired; start again');
    await opaque.ready;
    let proved = false;
    try {
      opaque.server.finishLogin({ serverLoginState: pending.serverLoginState, finishLoginRequest: input.finishLoginRequest });
      proved = pending.userId !== undefined || pending.reviewUsernameKey !== undefined;
    } catch {
      proved = false;
    }
    if (!proved) throw new AppError('unauthenticated', INVALID_CREDENTIALS);
    await this.deps.guard.provedAfterAll(pending.accountKey, pending.ip);
    if (pending.userId === undefined) {
      const review = await this.deps.registration.openOrRejectedReview({ usernameKey: pending.reviewUsernameKey! });
      if (review) throw reviewError(review);
      // Decided between start and finish: approved now, so the client signs in again.
      throw new AppError('unauthenticated', 'the account changed during sign-in; start again');
    }
    const account = await findPasswordAccount(this.deps.db, pending.accountKey);
    if (!account || account.user.id !== pending.userId) throw new AppError('unauthenticated', INVALID_CREDENTIALS);
    if (account.password?.kind !== 'opaque' || digest(account.password.secret) !== pending.recordDigest) {
      throw new AppError('unauthenticated', 'the password changed during sign-in; start again');
    }
    return this.deps.signIn.complete(account.user, 'opaque', client, account.secondFactor);
  }

  private requireSignup(): { enabled: boolean; needReview: boolean } {
    const policy = signupPolicy(this.deps.settings, 'password');
    if (!policy.enabled) throw signupDisabled('password', 'user.enablePasswordSignup');
    return policy;
  }
}

/** The library throws on malformed protocol messages; that is the client's mistake, not ours. */
function guardInput<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw AppError.invalid([{ key: field, message: `is not a valid OPAQUE message (${err instanceof Error ? err.message : String(err)})` }]);
  }
}

function digest(record: string): string {
  return createHash('sha256').update(record).digest('base64url');
}
