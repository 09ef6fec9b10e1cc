import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import type pg from 'pg';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import { AppError } from '../../errors/index.js';
import type { RuntimeSettings } from '../../settings/index.js';
import type { PasskeyRecord } from '../credentials.js';
import { reviewError, signupDisabled, signupPolicy, type Registration, type ReviewState, type SignupOutcome } from '../registration.js';
import type { ClientInfo, SignIn, SignInResult } from '../sign-in.js';
import type { SignInGuard } from '../sign-in-guard.js';
import { findUserById, findUserByUsernameKey } from '../users.js';
import { parseUsername, usernameKey } from '../username.js';
import { accountKey } from './password.js';
import { ChallengeStore, type ChallengeRecord } from './webauthn-challenges.js';
import {
  advanceCounter,
  bindPasskey,
  deletePasskey,
  ensureCredentialFree,
  findPasskey,
  isDuplicatePasskey,
  listPasskeys,
  MAX_PASSKEYS_PER_USER,
  passkeyTaken,
  type StoredPasskey,
} from './webauthn-passkeys.js';
import {
  creationOptions,
  requestOptions,
  verifyAssertion,
  verifyRegistration,
  type AuthenticationJSON,
  type CredentialDescriptor,
  type RegistrationJSON,
  type RelyingParty,
} from './webauthn-relying-party.js';

/**
 * WebAuthn / passkeys: signup with a passkey as the account's first credential (behind
 * `user.enableWebauthnSignup` and its review flag), sign-in with a passkey, and binding more
 * passkeys to a signed-in account. Each ceremony is two requests: options (a challenge kept in
 * Redis, see webauthn-challenges.ts) and verify (the challenge spent, the response checked,
 * then the account created, signed in or extended).
 *
 * Like the password methods, sign-in is not gated by the signup flag: an account that exists
 * keeps signing in with its passkeys when passkey signup is turned off, and binding is not a
 * signup either.
 */
export interface WebAuthnMethodDeps {
  db: pg.Pool;
  redis: Redis;
  settings: RuntimeSettings;
  registration: Registration;
  signIn: SignIn;
  guard: SignInGuard;
  /** Undefined when the startup config names no origin or RP ID: every ceremony is then `unavailable`. */
  rp: RelyingParty | undefined;
  /** HMAC key of the stand-in credential ids offered for usernames without passkeys. */
  decoyKey: Buffer;
  prefix?: string;
}

type Client = Required<Pick<ClientInfo, 'ip'>> & ClientInfo;

export interface CreationChallenge {
  challengeId: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}

export interface RequestChallenge {
  challengeId: string;
  options: PublicKeyCredentialRequestOptionsJSON;
}

const DEFAULT_PASSKEY_NAME = 'Passkey';

export class WebAuthnMethod {
  private readonly challenges: ChallengeStore;

  constructor(private readonly deps: WebAuthnMethodDeps) {
    this.challenges = new ChallengeStore(deps.redis, deps.prefix ?? 'svc');
  }

  // Signup: the passkey is the new account's first credential.

  async signupOptions(input: { username: string; displayName?: string | undefined }, client: Client): Promise<CreationChallenge> {
    this.requireSignup();
    const rp = this.rp();
    await this.deps.guard.signup(client.ip);
    const username = parseUsername(input.username);
    await this.ensureAvailable(username);
    const displayName = input.displayName?.trim() || username.name;
    const options = await creationOptions(rp, { userName: username.name, displayName, exclude: [] });
    const challengeId = await this.challenges.put({ ceremony: 'signup', challenge: options.challenge, username: username.name, usernameKey: username.key, displayName });
    return { challengeId, options };
  }

  async signupVerify(input: { challengeId: string; response: RegistrationJSON; name?: string | undefined }): Promise<SignupOutcome> {
    const record = await this.challenges.take('signup', input.challengeId);
    // Checked again: the setting may have been turned off since the options were issued.
    const policy = this.requireSignup();
    const credential = await verifyRegistration(this.rp(), input.response, record.challenge);
    await ensureCredentialFree(this.deps.db, credential.id);
    const passkey: PasskeyRecord = { ...credential, name: passkeyName(input.name) };
    let outcome: SignupOutcome;
    try {
      outcome = await this.deps.registration.signup(
        'webauthn',
        { username: record.username, usernameKey: record.usernameKey, displayName: record.displayName, credential: { type: 'passkey', passkey } },
        { needReview: policy.needReview, externalKey: credential.id },
      );
    } catch (err) {
      if (isDuplicatePasskey(err)) throw passkeyTaken();
      throw err;
    }
    if (outcome.kind === 'pending_review') await this.ensureOwnReview(outcome.reviewId, credential.id, record.username);
    return outcome;
  }

  // Sign-in.

  /**
   * Options for `navigator.credentials.get`. Without a username the browser offers the
   * discoverable passkeys it holds for the RP ID. With one, the account's passkeys are listed;
   * a username without any (unknown, or password-only) gets a stand-in id derived from it, so
   * the answer does not tell which usernames exist.
   */
  async loginOptions(input: { username?: string | undefined }, client: Client): Promise<RequestChallenge> {
    const rp = this.rp();
    await this.deps.guard.attempt(client.ip);
    let allow: CredentialDescriptor[] = [];
    let key: string | undefined;
    if (input.username !== undefined) {
      key = accountKey(input.username);
      allow = await this.passkeysOf(key);
      if (allow.length === 0) allow = [{ id: this.decoyId(key), transports: [] }];
    }
    const options = await requestOptions(rp, allow);
    const record: ChallengeRecord = { ceremony: 'login', challenge: options.challenge, ...(key !== undefined ? { usernameKey: key } : {}) };
    return { challengeId: await this.challenges.put(record), options };
  }

  async loginVerify(input: { challengeId: string; response: AuthenticationJSON }, client: Client): Promise<SignInResult> {
    await this.deps.guard.attempt(client.ip);
    const record = await this.challenges.take('login', input.challengeId);
    const rp = this.rp();
    const stored = await findPasskey(this.deps.db, input.response.id);
    if (!stored) return this.refuseUnregistered(record, input.response, client);
    const user = await findUserById(this.deps.db, stored.userId);
    if (!user) throw unregistered();
    const key = usernameKey(user.username);
    if (record.usernameKey !== undefined && record.usernameKey !== key) throw notTheirs();
    await this.counted(key, client.ip, async () => {
      const { counter } = await verifyAssertion(rp, input.response, record.challenge, stored);
      if (!(await advanceCounter(this.deps.db, stored.id, user.id, counter))) {
        const now = await findPasskey(this.deps.db, stored.id);
        throw cloned(now?.counter ?? stored.counter, counter);
      }
    });
    return this.deps.signIn.complete(user, 'webauthn', client);
  }

  // Binding more passkeys to a signed-in account (not a signup: the signup flag does not apply).

  async bindOptions(user: { id: string; username: string; displayName: string }): Promise<CreationChallenge> {
    const rp = this.rp();
    const existing = await listPasskeys(this.deps.db, user.id);
    if (existing.length >= MAX_PASSKEYS_PER_USER) {
      throw new AppError('limit_exceeded', `an account holds at most ${MAX_PASSKEYS_PER_USER} passkeys; delete one first`);
    }
    const options = await creationOptions(rp, {
      userName: user.username,
      displayName: user.displayName,
      // A stable handle per account: authenticators keep one discoverable passkey per (RP ID, handle).
      userHandle: Buffer.from(user.id.replace(/-/g, ''), 'hex'),
      // The browser refuses an authenticator that already holds one of these, before the user acts.
      exclude: existing,
    });
    const challengeId = await this.challenges.put({ ceremony: 'bind', challenge: options.challenge, userId: user.id });
    return { challengeId, options };
  }

  /**
   * Verifies and stores a new passkey of the signed-in user. Failures are about the submitted
   * fields (`invalid_argument`), not the session: a 401 here would tell clients to sign out.
   */
  async bind(userId: string, input: { challengeId: string; response: RegistrationJSON; name?: string | undefined }): Promise<StoredPasskey> {
    const record = await asField('challengeId', () => this.challenges.take('bind', input.challengeId));
    if (record.userId !== userId) throw AppError.invalid([{ key: 'challengeId', message: 'was issued to another account' }]);
    const credential = await asField('response', () => verifyRegistration(this.rp(), input.response, record.challenge));
    return bindPasskey(this.deps.db, userId, { ...credential, name: passkeyName(input.name) });
  }

  list(userId: string): Promise<StoredPasskey[]> {
    return listPasskeys(this.deps.db, userId);
  }

  remove(userId: string, passkeyId: string): Promise<void> {
    return deletePasskey(this.deps.db, userId, passkeyId);
  }

  /**
   * A passkey not in the table may be the one a pending (or rejected) signup holds. Its owner,
   * proving the key, learns the review state; anyone else gets the plain refusal.
   */
  private async refuseUnregistered(record: Extract<ChallengeRecord, { ceremony: 'login' }>, response: AuthenticationJSON, client: Client): Promise<never> {
    const review = await this.deps.registration.openOrRejectedReview({ externalKey: response.id });
    const pending = review && pendingPasskey(review, response.id);
    if (!review || !pending) throw unregistered();
    const key = review.account.usernameKey;
    if (record.usernameKey !== undefined && record.usernameKey !== key) throw notTheirs();
    await this.counted(key, client.ip, () => verifyAssertion(this.rp(), response, record.challenge, pending));
    throw reviewError(review);
  }

  /** Runs a verification counted as a failed sign-in of the account until it succeeds (sign-in-guard.ts). */
  private async counted(key: string, ip: string, verify: () => Promise<unknown>): Promise<void> {
    await this.deps.guard.failedInAdvance(key, ip);
    await verify();
    await this.deps.guard.provedAfterAll(key, ip);
  }

  private async passkeysOf(key: string): Promise<CredentialDescriptor[]> {
    const user = await findUserByUsernameKey(this.deps.db, key);
    if (user) return listPasskeys(this.deps.db, user.id);
    const review = await this.deps.registration.openOrRejectedReview({ usernameKey: key });
    const credential = review?.account.credential;
    return credential?.type === 'passkey' ? [{ id: credential.passkey.id, transports: credential.passkey.transports }] : [];
  }

  private async ensureAvailable(username: { name: string; key: string }): Promise<void> {
    const { rowCount } = await this.deps.db.query(
      `SELECT 1 FROM users WHERE username_key = $1
       UNION ALL SELECT 1 FROM registration_reviews WHERE username_key = $1 AND state = 'pending'`,
      [username.key],
    );
    if ((rowCount ?? 0) > 0) throw taken(username.name);
  }

  /**
   * `Registration.signup` treats a second request for a username under review as a retry of
   * the first. For passkeys it is only one when it brings the same passkey; otherwise someone
   * else's signup holds the name, and this passkey was not filed.
   */
  private async ensureOwnReview(reviewId: string, credentialId: string, username: string): Promise<void> {
    const { rows } = await this.deps.db.query<{ external_key: string | null }>('SELECT external_key FROM registration_reviews WHERE id = $1', [reviewId]);
    if (rows[0]?.external_key !== credentialId) throw taken(username);
  }

  private requireSignup(): { enabled: boolean; needReview: boolean } {
    const policy = signupPolicy(this.deps.settings, 'webauthn');
    if (!policy.enabled) throw signupDisabled('passkey (WebAuthn)', 'user.enableWebauthnSignup');
    return policy;
  }

  private rp(): RelyingParty {
    if (!this.deps.rp) throw new AppError('unavailable', 'passkeys are not configured on this server (startup config webauthn.rp_origin and webauthn.rp_id)');
    return this.deps.rp;
  }

  private decoyId(key: string): string {
    return createHmac('sha256', this.deps.decoyKey).update(`webauthn-decoy:${key}`).digest('base64url');
  }
}

/** The relying party of a startup config, when it names one. */
export function relyingParty(config: { rp_origin?: string; rp_id?: string; rp_name?: string } | undefined): RelyingParty | undefined {
  if (!config?.rp_origin || !config.rp_id) return undefined;
  return { origin: config.rp_origin, id: config.rp_id, name: config.rp_name || 'svc' };
}

function pendingPasskey(review: ReviewState, credentialId: string): { id: string; publicKey: Uint8Array; transports: string[] } | undefined {
  const credential = review.account.credential;
  if (credential.type !== 'passkey' || credential.passkey.id !== credentialId) return undefined;
  return { id: credential.passkey.id, publicKey: Buffer.from(credential.passkey.publicKey, 'base64url'), transports: credential.passkey.transports };
}

function passkeyName(name: string | undefined): string {
  return name?.trim() || DEFAULT_PASSKEY_NAME;
}

/** Re-labels a ceremony failure of a signed-in user as a bad field. */
async function asField<T>(field: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError && err.code === 'unauthenticated') {
      throw new AppError('invalid_argument', `${field}: ${err.message}`, [{ key: field, message: err.message }], { cause: err });
    }
    throw err;
  }
}

function unregistered(): AppError {
  return new AppError('unauthenticated', 'this passkey is not registered on this server (it may have been deleted); sign in another way');
}

function notTheirs(): AppError {
  return new AppError('unauthenticated', 'this passkey does not belong to the account this sign-in was started for');
}

function cloned(stored: number, presented: number): AppError {
  return new AppError(
    'unauthenticated',
    `the passkey's signature counter did not advance (last seen ${stored}, presented ${presented}): the authenticator may have been cloned, so this sign-in is refused`,
  );
}

function taken(username: string): AppError {
  return new AppError('conflict', `username "${username}" is taken`, [{ key: 'username', message: 'is taken' }]);
}
