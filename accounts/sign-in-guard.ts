import type { RateLimits } from './rate-limits.js';

/**
 * Rate limits around a primary sign-in, in the order that reveals least: the address's
 * overall budget first, then the failure back-offs of the account, before any credential is
 * looked at.
 */
export class SignInGuard {
  constructor(private readonly limits: RateLimits) {}

  async before(accountKey: string, ip: string): Promise<void> {
    await this.limits.consume('signInPerIp', ip, 'sign-in attempts from this address');
    await this.limits.check('failuresPerAccountIp', `${accountKey}|${ip}`, 'failed sign-ins for this account');
    await this.limits.check('failuresPerAccount', accountKey, 'failed sign-ins for this account');
  }

  /**
   * `before` in two halves, for methods that learn the account only from the credential
   * presented (a passkey's id): the address is counted first, the account checked once known.
   */
  async attempt(ip: string): Promise<void> {
    await this.limits.consume('signInPerIp', ip, 'sign-in attempts from this address');
  }

  async checkAccount(accountKey: string, ip: string): Promise<void> {
    await this.limits.check('failuresPerAccountIp', `${accountKey}|${ip}`, 'failed sign-ins for this account');
    await this.limits.check('failuresPerAccount', accountKey, 'failed sign-ins for this account');
  }

  async failed(accountKey: string, ip: string): Promise<void> {
    await this.limits.penalize('failuresPerAccountIp', `${accountKey}|${ip}`);
    await this.limits.penalize('failuresPerAccount', accountKey);
  }

  async succeeded(accountKey: string, ip: string): Promise<void> {
    await this.limits.reset('failuresPerAccountIp', `${accountKey}|${ip}`);
  }

  async signup(ip: string): Promise<void> {
    await this.limits.consume('signUpPerIp', ip, 'signups from this address');
  }
}
