import type pg from 'pg';
import type { Mailer } from '../../mail/index.js';
import { setPassword } from '../credentials.js';
import { parseEmail } from '../email/address.js';
import { requireMail, verifyCode } from '../email/code-guard.js';
import { consumeCode, invalidCode, issueCode, nominalExpiry } from '../email/codes.js';
import { emailLink, resetPasswordMessage } from '../email/messages.js';
import type { RateLimits } from '../rate-limits.js';
import type { SessionStore } from '../sessions/session-store.js';
import { findUserByEmail, findUserById } from '../users.js';
import { usernameKey } from '../username.js';
import { withTransaction } from '../../postgres/index.js';
import { passwordSecret, type NewPassword } from './new-password.js';
import type { OpaqueMethod } from './opaque.js';
import type { CodeSent } from './email-signup.js';

/**
 * Password reset by an emailed single-use code, for accounts with an email address. Asking
 * answers the same whether or not the address has an account. Finishing sets the new
 * password (OPAQUE or Argon2id) and signs out every session of the account.
 */
export interface PasswordResetDeps {
  pool: pg.Pool;
  limits: RateLimits;
  sessions: SessionStore;
  mailer: Pick<Mailer, 'configured' | 'requireConfigured' | 'send'>;
  opaque: OpaqueMethod;
  publicUrl: string;
}

export class PasswordReset {
  constructor(private readonly deps: PasswordResetDeps) {}

  async start(input: { email: string }, client: { ip: string }): Promise<CodeSent> {
    requireMail(this.deps.mailer);
    const email = parseEmail(input.email);
    await this.deps.limits.consume('codesPerIp', client.ip, 'code requests from this address');
    await this.deps.limits.consume('emailsPerAddress', email.key, 'emails to this address');
    const user = await findUserByEmail(this.deps.pool, email.key);
    if (!user || user.state !== 'active') return { status: 'code_sent', expiresAt: nominalExpiry() };
    const issued = await issueCode(this.deps.pool, { purpose: 'reset', emailKey: email.key, userId: user.id });
    const link = emailLink(this.deps.publicUrl, '/auth/reset', { email: email.address, code: issued.code });
    await this.deps.mailer.send(resetPasswordMessage({ to: email.address, username: user.username, code: issued.code, link }));
    return { status: 'code_sent', expiresAt: issued.expiresAt };
  }

  /** The OPAQUE registration message for the account, for a client that holds the code. */
  async opaqueStart(input: { email: string; code: string; registrationRequest: string }, client: { ip: string }): Promise<{ registrationResponse: string }> {
    const { user } = await this.accountOf(input, client);
    return this.deps.opaque.registrationResponse(usernameKey(user.username), input.registrationRequest);
  }

  async finish(input: { email: string; code: string } & NewPassword, client: { ip: string }): Promise<void> {
    const { codeId, user } = await this.accountOf(input, client);
    const credential = await passwordSecret(input, user.username);
    await withTransaction(this.deps.pool, async (db) => {
      await consumeCode(db, codeId);
      await setPassword(db, user.id, credential.kind, credential.secret);
      await this.deps.sessions.revokeAll(db, user.id, 'password_reset');
    });
    this.deps.sessions.announce({ scope: 'user', userId: user.id, reason: 'password_reset' });
  }

  private async accountOf(input: { email: string; code: string }, client: { ip: string }): Promise<{ codeId: string; user: { id: string; username: string } }> {
    const email = parseEmail(input.email);
    const live = await verifyCode(this.deps.pool, this.deps.limits, { purpose: 'reset', emailKey: email.key, code: input.code }, client.ip);
    const user = live.userId ? await findUserById(this.deps.pool, live.userId) : undefined;
    if (!user || user.state !== 'active') throw invalidCode();
    return { codeId: live.id, user };
  }
}
