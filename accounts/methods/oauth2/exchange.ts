import * as client from 'openid-client';
import { AppError } from '../../../errors/index.js';
import { describeError } from './client-configs.js';
import { fetchGithubProfile, type GithubEndpoints } from './github.js';
import type { OAuth2Instance } from './instances.js';
import { needsUserinfo, OIDC_SCOPE, oidcProfile } from './oidc.js';
import type { ProviderProfile } from './profile.js';

/**
 * The two protocol steps with a provider: the authorization URL the user is sent to, and the
 * exchange of the code that comes back (PKCE verifier, and for OIDC the nonce in a validated
 * ID token) for tokens and the identity they stand for.
 */
export interface AuthorizationRequest {
  state: string;
  pkceVerifier: string;
  nonce?: string;
}

/** What the provider put on the redirect URL, as the client forwards it. */
export interface CallbackParams {
  state: string;
  code?: string;
  iss?: string;
  error?: string;
  errorDescription?: string;
}

export interface Exchanged {
  profile: ProviderProfile;
  /** Kept sealed with the binding; the ID token is not kept (it only carried the identity). */
  tokens: Record<string, unknown>;
  /** The profile with whatever else the provider tells on request (userinfo), for a new account. */
  fullProfile(): Promise<ProviderProfile>;
}

export async function authorizationUrl(config: client.Configuration, instance: OAuth2Instance, request: AuthorizationRequest): Promise<string> {
  const parameters: Record<string, string> = {
    // Exactly as configured: providers compare it byte for byte with their registration.
    redirect_uri: instance.redirectUrl,
    code_challenge: await client.calculatePKCECodeChallenge(request.pkceVerifier),
    code_challenge_method: 'S256',
    state: request.state,
  };
  if (instance.kind === 'oidc') {
    parameters.scope = OIDC_SCOPE;
    parameters.nonce = request.nonce!;
  }
  return client.buildAuthorizationUrl(config, parameters).href;
}

export async function exchangeCode(
  config: client.Configuration,
  instance: OAuth2Instance,
  request: AuthorizationRequest,
  params: CallbackParams & { code: string },
  github: GithubEndpoints,
): Promise<Exchanged> {
  // The callback URL as the provider built it on the configured redirect URL.
  const callbackUrl = new URL(instance.redirectUrl);
  callbackUrl.searchParams.set('code', params.code);
  callbackUrl.searchParams.set('state', params.state);
  if (params.iss !== undefined) callbackUrl.searchParams.set('iss', params.iss);

  const checks: client.AuthorizationCodeGrantChecks = { pkceCodeVerifier: request.pkceVerifier, expectedState: request.state };
  if (instance.kind === 'oidc') {
    checks.expectedNonce = request.nonce!;
    checks.idTokenExpected = true;
  }
  let response: Awaited<ReturnType<typeof client.authorizationCodeGrant>>;
  try {
    response = await client.authorizationCodeGrant(config, callbackUrl, checks);
  } catch (err) {
    throw providerFailure(instance, 'the code exchange', err);
  }
  const tokens = keptTokens(response);

  if (instance.kind === 'github') {
    let profile: ProviderProfile;
    try {
      profile = await fetchGithubProfile(config, response.access_token, github);
    } catch (err) {
      throw providerFailure(instance, "reading the user's GitHub profile", err);
    }
    return { profile, tokens, fullProfile: () => Promise.resolve(profile) };
  }

  const profile = oidcProfile(response.claims() ?? {});
  return {
    profile,
    tokens,
    fullProfile: async () => {
      if (!needsUserinfo(profile) || !config.serverMetadata().userinfo_endpoint) return profile;
      try {
        // fetchUserInfo checks that the answer is about the same subject.
        const userinfo = await client.fetchUserInfo(config, response.access_token, profile.subject);
        return oidcProfile({ ...userinfo, sub: profile.subject });
      } catch {
        // The claims only name the new account; without them it is still the same identity.
        return profile;
      }
    },
  };
}

function keptTokens(response: client.TokenEndpointResponse & client.TokenEndpointResponseHelpers): Record<string, unknown> {
  const expiresIn = response.expiresIn();
  return {
    access_token: response.access_token,
    token_type: response.token_type,
    ...(response.scope !== undefined ? { scope: response.scope } : {}),
    ...(response.refresh_token !== undefined ? { refresh_token: response.refresh_token } : {}),
    ...(expiresIn !== undefined ? { expires_at: new Date(Date.now() + expiresIn * 1000).toISOString() } : {}),
  };
}

/**
 * A provider that cannot be reached is `unavailable` (retry later); anything the provider or
 * its answer refused (a spent code, a PKCE or nonce mismatch, a bad signature) ends this
 * sign-in: `unauthenticated`, with the provider's own words.
 */
function providerFailure(instance: OAuth2Instance, step: string, err: unknown): AppError {
  if (err instanceof AppError) return err;
  const label = `OAuth2 instance ${JSON.stringify(instance.name)}`;
  if (isNetworkFailure(err)) return new AppError('unavailable', `${label}: the provider could not be reached during ${step}: ${describeError(err)}`, [], { cause: err });
  if (err instanceof client.ResponseBodyError) {
    const description = err.error_description ? ` (${err.error_description})` : '';
    return new AppError('unauthenticated', `${label}: the provider refused ${step}: ${err.error}${description}; start the sign-in again`, [], { cause: err });
  }
  return new AppError('unauthenticated', `${label}: the provider's answer failed validation during ${step}: ${describeError(err)}; start the sign-in again`, [], { cause: err });
}

function isNetworkFailure(err: unknown): boolean {
  for (let current: unknown = err, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current.name === 'TimeoutError' || current.name === 'AbortError') return true;
    if (current instanceof TypeError && current.message === 'fetch failed') return true;
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_)/.test(code)) return true;
  }
  return false;
}
