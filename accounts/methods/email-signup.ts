import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import type { Mailer } from '../../mail/index.js';
import type { RuntimeSettings } from '../../settings/index.js';
import { emailAllowed, parseEmail, type EmailAddress } from '../email/address.js';
import { requireMail, verifyCode } from '../email/code-guard.js';
import { consumeCode, issueCode, nominalExpiry } from '../email/codes.js';
import { alreadyRegisteredMessage, confirmSignupMessage, emailLink } from '../email/messages.js';
import type { RateLimits } from '../rate-limits.js';
import { signupDisabled, signupPolicy, type Registration, type SignupOutcome } from '../registration.js';
import type { SecretBox } from '../../crypto/index.js';
import { findUserByEmail, findUserByUsernameKey } from '../users.js';
import { parseUsername } from '../username.js';
import { passwordSecret, type NewPassword } from './new-password.js';
import type { OpaqueMethod } from './opaque.js';

/**
 * Signup by email: the address receives a code (and a link carrying it); confirming the code
 * sets the account's local password, by OPAQUE or direct transport, and creates the account
 * or files it for review under `user.emailSignupNeedReview`.
 *
 * An address that already has an account gets a "you already have an account" email
 * instead of a code, and the answer is the same, so the form does not tell who is registered.
 */
export interface EmailSignupDeps {
  pool: pg.Pool;
  box: SecretBox;
  settings: RuntimeSettings;
  registration: Registration;
  limits: RateLimits;
  mailer: Pick<Mailer, 'configured' | 'requireConfigured' | 'send'>;
  opaque: OpaqueMethod;
  /** Where users open the service; links in emails start with it. */
  publicUrl: string;
}

interface PendingSignup {
  username: string;
  displayName: string;
  email: string;
}

export interface CodeSent {
  status: 'code_sent';
  expiresAt: Date;
}

export class EmailSignup {
  constructor(private readonly deps: EmailSignupDeps) {}

  async start(input: { email: string; username: string; displayName?: string | undefined }, client: { ip: string }): Promise<CodeSent> {
    this.requireSignup();
    requireMail(this.deps.mailer);
    const email = parseEmail(input.email);
    const username = parseUsername(input.username);
    this.requireAllowed(email, 'may not sign up here');
    await this.deps.limits.consume('signUpPerIp', client.ip, 'signups from this address');
    if (await findUserByUsernameKey(this.deps.pool, username.key)) {
      throw new AppError('conflict', `username "${username.name}" is taken`, [{ key: 'username', message: 'is taken' }]);
    }
    await this.deps.limits.consume('emailsPerAddress', email.key, 'emails to this address');

    const existing = await findUserByEmail(this.deps.pool, email.key);
    if (existing) {
      await this.deps.mailer.send(alreadyRegisteredMessage({ to: email.address, username: existing.username, resetLink: emailLink(this.deps.publicUrl, '/auth/reset', { email: email.address }) }));
      return { status: 'code_sent', expiresAt: nominalExpiry() };
    }
    const pending: PendingSignup = { username: username.name, displayName: input.displayName?.trim() || username.name, email: email.address };
    const issued = await issueCode(this.deps.pool, { purpose: 'signup', emailKey: email.key, payload: this.deps.box.seal(JSON.stringify(pending), context(email.key)) });
    await this.deps.mailer.send(
      confirmSignupMessage({ to: email.address, username: username.name, code: issued.code, link: emailLink(this.deps.publicUrl, '/auth/confirm-email', { email: email.address, code: issued.code }) }),
    );
    return { status: 'code_sent', expiresAt: issued.expiresAt };
  }

  /** The OPAQUE registration message for the pending account, for a client that holds the code. */
  async opaqueStart(input: { email: string; code: string; registrationRequest: string }, client: { ip: string }): Promise<{ registrationResponse: string }> {
    this.requireSignup();
    const { pending } = await this.pendingOf(input, client);
    return this.deps.opaque.registrationResponse(parseUsername(pending.username).key, input.registrationRequest);
  }

  async confirm(input: { email: string; code: string } & NewPassword, client: { ip: string }): Promise<SignupOutcome> {
    const policy = this.requireSignup();
    const { codeId, pending } = await this.pendingOf(input, client);
    const username = parseUsername(pending.username);
    const credential = await passwordSecret(input, username.name);
    // Used before the account exists: a second confirm of the same code cannot race this one.
    await consumeCode(this.deps.pool, codeId);
    return this.deps.registration.signup(
      'email',
      {
        username: username.name,
        usernameKey: username.key,
        displayName: pending.displayName,
        email: pending.email,
        credential: { type: 'password', ...credential },
      },
      { needReview: policy.needReview },
    );
  }

  /**
   * The pending signup of a code. The allowlist is checked again here, not only at start: an
   * operator who takes an address or domain off it means no new account from it, also for codes
   * sent before the change (the code stays unused, should the entry come back).
   */
  private async pendingOf(input: { email: string; code: string }, client: { ip: string }): Promise<{ codeId: string; pending: PendingSignup }> {
    const email = parseEmail(input.email);
    const live = await verifyCode(this.deps.pool, this.deps.limits, { purpose: 'signup', emailKey: email.key, code: input.code }, client.ip);
    this.requireAllowed(email, 'is no longer allowed to sign up here: the allowlist changed after the code was sent');
    const pending = JSON.parse(this.deps.box.openText(live.payload ?? '', context(email.key))) as PendingSignup;
    return { codeId: live.id, pending };
  }

  private requireAllowed(email: EmailAddress, why: string): void {
    if (!emailAllowed(this.deps.settings, email)) {
      throw new AppError('forbidden', `this email address ${why} (runtime setting email.whitelistDomains)`, [{ key: 'email', message: 'is not on the allowlist' }]);
    }
  }

  private requireSignup(): { enabled: boolean; needReview: boolean } {
    const policy = signupPolicy(this.deps.settings, 'email');
    if (!policy.enabled) throw signupDisabled('email', 'user.enableEmailSignup');
    return policy;
  }
}

function context(emailKey: string): string {
  return `email-signup:${emailKey}`;
}
