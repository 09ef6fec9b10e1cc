import * as client from 'openid-client';
import { AppError } from '../../../errors/index.js';
import { textClaim, type ProviderProfile } from './profile.js';

/**
 * The `github` variant: GitHub's OAuth apps, which are plain OAuth2 (no discovery, no ID
 * token), so the endpoints are GitHub's fixed ones and the identity comes from the user API.
 *
 * No scope is requested: an unscoped token reads the public profile, which is all sign-in
 * needs (GitHub treats an empty scope as read-only public access). The subject is the numeric
 * user id, not the login, because logins can be renamed and then re-registered by someone else.
 * The profile's public email is not kept: GitHub says nothing there about verification.
 */
export interface GithubEndpoints {
  authorization: string;
  token: string;
  user: string;
}

export const GITHUB_ENDPOINTS: GithubEndpoints = {
  authorization: 'https://github.com/login/oauth/authorize',
  token: 'https://github.com/login/oauth/access_token',
  user: 'https://api.github.com/user',
};

/** Server metadata for openid-client: GitHub publishes none, so it is written down here. */
export function githubServerMetadata(endpoints: GithubEndpoints): client.ServerMetadata {
  return {
    // GitHub has no issuer identifier; this one only labels the configuration.
    issuer: new URL(endpoints.authorization).origin,
    authorization_endpoint: endpoints.authorization,
    token_endpoint: endpoints.token,
    code_challenge_methods_supported: ['S256'],
  };
}

/**
 * GitHub answers a refused code exchange with 200 and `{error, error_description}` in the body,
 * where OAuth2 (RFC 6749 5.2) says 400. Rewritten to 400 so openid-client reports the
 * provider's error instead of a missing access token.
 */
export function githubTokenFetch(inner: client.CustomFetch): client.CustomFetch {
  return async (url, options) => {
    const response = await inner(url, options);
    if (response.status !== 200 || !(response.headers.get('content-type') ?? '').includes('json')) return response;
    const text = await response.text();
    let status = 200;
    try {
      const body = JSON.parse(text) as { error?: unknown; access_token?: unknown };
      if (typeof body.error === 'string' && body.access_token === undefined) status = 400;
    } catch {
      // Not JSON after all: leave it to openid-client to report.
    }
    return new Response(text, { status, headers: response.headers });
  };
}

/** The signed-in GitHub user, from GET /user. */
export async function fetchGithubProfile(config: client.Configuration, accessToken: string, endpoints: GithubEndpoints): Promise<ProviderProfile> {
  const headers = new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28', 'user-agent': 'svc' });
  const response = await client.fetchProtectedResource(config, accessToken, new URL(endpoints.user), 'GET', null, headers);
  if (!response.ok) {
    throw new AppError('unauthenticated', `GitHub's user API answered ${response.status} for the new token`);
  }
  return githubProfile(await response.json());
}

/** Maps GitHub's user object; the numeric id is the subject. */
export function githubProfile(user: unknown): ProviderProfile {
  const fields = (typeof user === 'object' && user !== null ? user : {}) as Record<string, unknown>;
  const id = fields.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new AppError('unauthenticated', "GitHub's user API answered without a numeric user id");
  }
  const username = textClaim(fields.login, 64);
  const name = textClaim(fields.name, 64);
  return { subject: String(id), ...(username ? { username } : {}), ...(name ? { name } : {}) };
}
