import type { RateLimits } from './rate-limits.js';

/**
 * Rate limits around a primary sign-in, in the order that reveals least: the address's
 * overall budget first, then the failure back-offs of the account, before any credential is
 * looked at.
 *
 * Every attempt is counted as a failure before it is judged (atomically in Redis), and a
 * success gives that point back: judging first and counting after let concurrent guesses all
 * pass the check before any was counted (8 to 12 tries against a budget of 5).
 */
export class SignInGuard {
  constructor(private readonly limits: RateLimits) {}

  async before(accountKey: string, ip: string): Promise<void> {
    await this.attempt(ip);
    await this.failedInAdvance(accountKey, ip);
  }

  /**
   * `before` in two halves, for methods that learn the account only from the credential
   * presented (a passkey's id): the address is counted first, the account once known.
   */
  async attempt(ip: string): Promise<void> {
    await this.limits.consume('signInPerIp', ip, 'sign-in attempts from this address');
  }

  /** Counts a failure on the account's back-offs before the credential is judged (`rate_limited` past them). */
  async failedInAdvance(accountKey: string, ip: string): Promise<void> {
    await Promise.all([
      this.limits.attempt('failuresPerAccountIp', `${accountKey}|${ip}`, 'failed sign-ins for this account'),
      this.limits.attempt('failuresPerAccount', accountKey, 'failed sign-ins for this account'),
    ]);
  }

  /**
   * The credential was right: the point counted in advance on the account's count is given
   * back and the address's count for the account cleared.
   */
  async provedAfterAll(accountKey: string, ip: string): Promise<void> {
    await Promise.all([this.limits.refund('failuresPerAccount', accountKey), this.limits.reset('failuresPerAccountIp', `${accountKey}|${ip}`)]);
  }

  async signup(ip: string): Promise<void> {
    await this.limits.consume('signUpPerIp', ip, 'signups from this address');
  }
}
