/**
 * The browser side of the passkey endpoints for tests: each ceremony is the options call, the
 * soft authenticator's answer to those options, and the verify call, over HTTP as a client
 * makes them. Every call comes from the given address (X-Forwarded-For), as a native client.
 */
import type { CeremonyOverrides, CreationOptionsJSON, RequestOptionsJSON, SoftAuthenticator } from '../fixtures/soft-authenticator.js';
import { bearer, call, native, type Answer } from './fixtures.js';

/** An options answer: the challenge when it is 200, an error body otherwise. */
export type Challenge<O> = { challengeId: string; options: O } & Record<string, unknown>;

const from = (ip: string): Record<string, string> => ({ ...native, 'x-forwarded-for': ip });

export class PasskeyClient {
  constructor(
    private readonly url: string,
    readonly ip: string,
  ) {}

  signupOptions(username: string, displayName?: string): Promise<Answer<Challenge<CreationOptionsJSON>>> {
    return call(`${this.url}/api/auth/webauthn/register/options`, 'POST', { username, ...(displayName ? { displayName } : {}) }, from(this.ip));
  }

  signupVerify(body: Record<string, unknown>): Promise<Answer> {
    return call(`${this.url}/api/auth/webauthn/register/verify`, 'POST', body, from(this.ip));
  }

  /** The whole signup ceremony; the options answer when it is not 200. */
  async signup(authenticator: SoftAuthenticator, username: string, overrides: CeremonyOverrides = {}): Promise<Answer> {
    const options = await this.signupOptions(username);
    if (options.status !== 200) return options;
    const response = authenticator.register(options.body.options, overrides);
    return this.signupVerify({ challengeId: options.body.challengeId, response });
  }

  loginOptions(username?: string): Promise<Answer<Challenge<RequestOptionsJSON>>> {
    return call(`${this.url}/api/auth/webauthn/login/options`, 'POST', username === undefined ? {} : { username }, from(this.ip));
  }

  loginVerify(body: Record<string, unknown>): Promise<Answer> {
    return call(`${this.url}/api/auth/webauthn/login/verify`, 'POST', body, from(this.ip));
  }

  /** The whole sign-in ceremony, with a username or (without) as a discoverable credential. */
  async login(authenticator: SoftAuthenticator, options: { username?: string; overrides?: CeremonyOverrides } = {}): Promise<Answer> {
    const challenge = await this.loginOptions(options.username);
    if (challenge.status !== 200) return challenge;
    const response = authenticator.authenticate(challenge.body.options, options.overrides);
    return this.loginVerify({ challengeId: challenge.body.challengeId, response });
  }

  /** `proof` is the recent-sign-in proof (`{currentPassword}`) a session older than 10 minutes needs. */
  bindOptions(token: string, proof?: Record<string, unknown>): Promise<Answer<Challenge<CreationOptionsJSON & { excludeCredentials: Array<{ id: string }> }>>> {
    return call(`${this.url}/api/me/passkeys/options`, 'POST', proof, { ...from(this.ip), ...bearer(token) });
  }

  bindVerify(token: string, body: Record<string, unknown>): Promise<Answer> {
    return call(`${this.url}/api/me/passkeys`, 'POST', body, { ...from(this.ip), ...bearer(token) });
  }

  /** The whole binding ceremony for the signed-in user of `token`. */
  async bind(authenticator: SoftAuthenticator, token: string, options: { name?: string; overrides?: CeremonyOverrides; proof?: Record<string, unknown> } = {}): Promise<Answer> {
    const challenge = await this.bindOptions(token, options.proof);
    if (challenge.status !== 200) return challenge;
    const response = authenticator.register(challenge.body.options, options.overrides);
    return this.bindVerify(token, { challengeId: challenge.body.challengeId, response, ...(options.name ? { name: options.name } : {}) });
  }

  list(token: string): Promise<Answer<{ passkeys: Array<{ id: string; name: string; transports: string[]; createdAt: string; lastUsedAt: string | null }> }>> {
    return call(`${this.url}/api/me/passkeys`, 'GET', undefined, { ...from(this.ip), ...bearer(token) });
  }

  remove(token: string, id: string): Promise<Answer> {
    return call(`${this.url}/api/me/passkeys/${encodeURIComponent(id)}`, 'DELETE', undefined, { ...from(this.ip), ...bearer(token) });
  }
}
