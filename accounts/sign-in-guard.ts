import type { RateLimits } from './rate-limits.js';

/**
 * Rate limits around a primary sign-in, in the order that reveals least: the address's
 * overall budget first, then the failure back-offs of the account, before any credential is
 * looked at.
 */
export class SignInGuard {
  constructor(private readonly limits: RateLimits) {}

  async before(accountKey: string, ip: string): Promise<void> {
    await this.attempt(ip);
    await this.checkAccount(accountKey, ip);
  }

  /**
   * `before` in two halves, for methods that learn the account only from the credential
   * presented (a passkey's id): the address is counted first, the account checked once known.
   */
  async attempt(ip: string): Promise<void> {
    await this.limits.consume('signInPerIp', ip, 'sign-in attempts from this address');
  }

  async checkAccount(accountKey: string, ip: string): Promise<void> {
    await Promise.all([
      this.limits.check('failuresPerAccountIp', `${accountKey}|${ip}`, 'failed sign-ins for this account'),
      this.limits.check('failuresPerAccount', accountKey, 'failed sign-ins for this account'),
    ]);
  }

  async failed(accountKey: string, ip: string): Promise<void> {
    await Promise.all([this.limits.penalize('failuresPerAccountIp', `${accountKey}|${ip}`), this.limits.penalize('failuresPerAccount', accountKey)]);
  }

  /**
   * For OPAQUE, whose proof arrives in a second request: the account's back-offs are checked
   * and a failure counted in one round trip each (given back by `provedAfterAll`).
   */
  async failedInAdvance(accountKey: string, ip: string): Promise<void> {
    await Promise.all([
      this.limits.penalizeUnlessSpent('failuresPerAccountIp', `${accountKey}|${ip}`, 'failed sign-ins for this account'),
      this.limits.penalizeUnlessSpent('failuresPerAccount', accountKey, 'failed sign-ins for this account'),
    ]);
  }

  /**
   * A sign-in counted as failed in advance (OPAQUE, whose proof arrives in a second request)
   * has succeeded: its point on the account's count is given back and the address's cleared.
   */
  async provedAfterAll(accountKey: string, ip: string): Promise<void> {
    await Promise.all([this.limits.refund('failuresPerAccount', accountKey), this.succeeded(accountKey, ip)]);
  }

  async succeeded(accountKey: string, ip: string): Promise<void> {
    await this.limits.reset('failuresPerAccountIp', `${accountKey}|${ip}`);
  }

  async signup(ip: string): Promise<void> {
    await this.limits.consume('signUpPerIp', ip, 'signups from this address');
  }
}
