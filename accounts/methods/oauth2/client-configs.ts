import * as client from 'openid-client';
import { AppError } from '../../../errors/index.js';
import { isLoopbackHost } from '../../../net/index.js';
import { GITHUB_ENDPOINTS, githubServerMetadata, githubTokenFetch, type GithubEndpoints } from './github.js';
import type { OAuth2Instance } from './instances.js';

/**
 * openid-client configurations per provider instance, cached under the instance's settings
 * fingerprint: a changed setting is a new configuration on the next request, and an OIDC
 * provider is rediscovered after `maxAgeMs` so moved endpoints are picked up without a restart.
 * A failed discovery is not cached; the next request tries again.
 */
export interface ClientConfigsOptions {
  /** Overridden only by tests of request building; the setting has no endpoint fields. */
  github?: GithubEndpoints;
  /** Per HTTP request to a provider (openid-client's default is 30 s, longer than a user waits). */
  timeoutSeconds?: number;
  maxAgeMs?: number;
}

interface Entry {
  fingerprint: string;
  expiresAt: number;
  config: Promise<client.Configuration>;
}

const DEFAULT_TIMEOUT_SECONDS = 10;
const DEFAULT_MAX_AGE_MS = 60 * 60_000;

export class ClientConfigs {
  private readonly entries = new Map<string, Entry>();
  private readonly github: GithubEndpoints;
  private readonly timeoutSeconds: number;
  private readonly maxAgeMs: number;

  constructor(options: ClientConfigsOptions = {}) {
    this.github = options.github ?? GITHUB_ENDPOINTS;
    this.timeoutSeconds = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
    this.maxAgeMs = options.maxAgeMs ?? DEFAULT_MAX_AGE_MS;
  }

  get githubEndpoints(): GithubEndpoints {
    return this.github;
  }

  async get(instance: OAuth2Instance): Promise<client.Configuration> {
    const now = Date.now();
    const cached = this.entries.get(instance.name);
    if (cached && cached.fingerprint === instance.fingerprint && cached.expiresAt > now) return cached.config;
    const config = this.create(instance);
    const entry: Entry = { fingerprint: instance.fingerprint, expiresAt: now + this.maxAgeMs, config };
    this.entries.set(instance.name, entry);
    config.catch(() => {
      if (this.entries.get(instance.name) === entry) this.entries.delete(instance.name);
    });
    return config;
  }

  private async create(instance: OAuth2Instance): Promise<client.Configuration> {
    if (instance.kind === 'github') {
      const config = new client.Configuration(githubServerMetadata(this.github), instance.clientId, instance.clientSecret);
      config.timeout = this.timeoutSeconds;
      config[client.customFetch] = exactRedirectUri(instance.redirectUrl, githubTokenFetch(platformFetch));
      if (isLoopbackHttp(this.github.token)) client.allowInsecureRequests(config);
      return config;
    }
    const issuer = instance.issuer!;
    let config: client.Configuration;
    try {
      config = await client.discovery(new URL(issuer), instance.clientId, instance.clientSecret, undefined, {
        timeout: this.timeoutSeconds,
        // The setting accepts plain http only for loopback issuers (a provider on the same
        // machine, as in development and tests); openid-client refuses http unless told.
        ...(isLoopbackHttp(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
      });
    } catch (err) {
      throw new AppError('unavailable', `OAuth2 instance ${JSON.stringify(instance.name)}: OpenID discovery at ${issuer} failed: ${describeError(err)}`, [], { cause: err });
    }
    config[client.customFetch] = exactRedirectUri(instance.redirectUrl, platformFetch);
    return config;
  }
}

/** Node's fetch as openid-client calls it: its `body` may be undefined, which fetch's type leaves out rather than allows. */
const platformFetch: client.CustomFetch = (url, { body, ...options }) => fetch(url, body === undefined ? options : { ...options, body });

/**
 * openid-client derives the token request's redirect_uri from the callback URL by dropping its
 * query, which changes a registered redirect URL that has a query (or is a bare origin without
 * its slash); providers compare it byte for byte with the authorization request's. Its
 * documented remedy is to set the registered value on the way out, as done here.
 * https://github.com/panva/openid-client/issues/868
 */
export function exactRedirectUri(redirectUrl: string, inner: client.CustomFetch): client.CustomFetch {
  return (url, options) => {
    if (options.body instanceof URLSearchParams && options.body.get('grant_type') === 'authorization_code') {
      options.body.set('redirect_uri', redirectUrl);
    }
    return inner(url, options);
  };
}

function isLoopbackHttp(text: string): boolean {
  const url = new URL(text);
  return url.protocol === 'http:' && isLoopbackHost(url.hostname);
}

/** openid-client wraps the interesting part (refused connection, bad metadata) in a cause. */
export function describeError(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  for (let depth = 0; current instanceof Error && depth < 4; depth++) {
    if (!parts.includes(current.message)) parts.push(current.message);
    current = current.cause;
  }
  if (parts.length === 0) parts.push(String(err));
  return parts.join(': ');
}
