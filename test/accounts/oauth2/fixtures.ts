/**
 * Driving OAuth2 sign-ins the way clients do: start at svc, let the in-process OIDC provider
 * (test/fixtures/oidc-provider.ts) play the user's browser through login and consent, and post
 * what it puts on the redirect URL back to svc's callback. The redirect URLs are never
 * requested: they stand for pages of the web client.
 */
import { randomBytes } from 'node:crypto';
import type { TestOidcProvider } from '../../fixtures/oidc-provider.js';
import { call, native, type Answer } from '../fixtures.js';

export interface OidcInstanceSpec {
  instanceName: string;
  enableSignup?: boolean;
  signupNeedReview?: boolean;
  clientId: string;
  clientSecret: string;
  redirectUrl: string;
}

/** The `oauth2.providers` element of an OIDC instance at the test provider. */
export function oidcInstance(op: TestOidcProvider, spec: OidcInstanceSpec): Record<string, unknown> {
  const { instanceName, enableSignup, signupNeedReview, clientId, clientSecret, redirectUrl } = spec;
  return {
    instanceName,
    ...(enableSignup !== undefined ? { enableSignup } : {}),
    ...(signupNeedReview !== undefined ? { signupNeedReview } : {}),
    oidc: { clientId, clientSecret, issuer: op.issuer, redirectUrl },
  };
}

/** A client registration at the provider and the instance spec that uses it. */
export function clientFor(instanceName: string, redirectUrl = `http://127.0.0.1:5173/oauth2/callback/${instanceName}`): OidcInstanceSpec {
  return { instanceName, clientId: `svc-${instanceName}`, clientSecret: `secret-${instanceName}-${randomBytes(8).toString('hex')}`, redirectUrl };
}

export interface Started {
  answer: Answer;
  authorizationUrl: string;
  clientBinding: string;
}

/** POST .../authorize as a native client from `ip`. */
export async function authorize(baseUrl: string, instance: string, ip: string, headers: Record<string, string> = {}): Promise<Started> {
  const answer = await call(`${baseUrl}/api/auth/oauth2/${instance}/authorize`, 'POST', undefined, { ...native, 'x-forwarded-for': ip, ...headers });
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  return { answer, authorizationUrl: text(answer.body.authorizationUrl), clientBinding: text(answer.body.clientBinding) };
}

/** The parameters the provider put on the redirect URL, as the web client forwards them. */
export function callbackParams(redirect: string): Record<string, string> {
  const url = new URL(redirect);
  const params: Record<string, string> = {};
  for (const name of ['code', 'state', 'iss', 'error', 'error_description']) {
    const value = url.searchParams.get(name);
    if (value !== null) params[name] = value;
  }
  return params;
}

/** POST .../callback as a native client. */
export function callback(baseUrl: string, instance: string, body: Record<string, unknown>, ip: string, headers: Record<string, string> = {}): Promise<Answer> {
  return call(`${baseUrl}/api/auth/oauth2/${instance}/callback`, 'POST', body, { ...native, 'x-forwarded-for': ip, ...headers });
}

/** The whole round trip: authorize, sign in at the provider as `sub`, callback. */
export async function signInWith(baseUrl: string, op: TestOidcProvider, instance: string, sub: string, ip: string): Promise<Answer> {
  const started = await authorize(baseUrl, instance, ip);
  if (started.answer.status !== 200) return started.answer;
  const redirect = await op.signIn(started.authorizationUrl, sub);
  return callback(baseUrl, instance, { ...callbackParams(redirect), clientBinding: started.clientBinding }, ip);
}
