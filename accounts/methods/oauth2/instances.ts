import { createHash } from 'node:crypto';
import { AppError } from '../../../errors/index.js';
import type { OAuth2ProviderKind } from '../../../contracts/management.js';
import type { RuntimeSettings } from '../../../settings/index.js';
import type { OAuth2ProviderSettings } from '../../../settings/index.js';

/**
 * The OAuth2 provider instances of the `oauth2.providers` runtime setting, read on every
 * request: an instance an operator removes stops answering on the next request on every
 * replica (the settings cache follows LISTEN/NOTIFY), and a changed one is used as changed.
 */
export type ProviderKind = OAuth2ProviderKind;

/** GitHub has no configurable issuer; its bindings record this one. */
export const GITHUB_ISSUER = 'https://github.com';

export interface OAuth2Instance {
  name: string;
  kind: ProviderKind;
  clientId: string;
  clientSecret: string;
  /** Sent to the provider byte for byte, as registered there. */
  redirectUrl: string;
  /** OIDC only: where discovery starts. */
  issuer?: string;
  /**
   * Who vouches for the subjects of this instance: the OIDC issuer as configured, or
   * `GITHUB_ISSUER`. Bindings record it with the kind and sign in only while both still match.
   */
  identityIssuer: string;
  enableSignup: boolean;
  signupNeedReview: boolean;
  /**
   * Hash of everything that shapes the protocol with this provider (variant, issuer, client,
   * redirect URL). Caches are keyed by it, and a sign-in started under other settings is not
   * finished under these.
   */
  fingerprint: string;
}

export class ProviderInstances {
  constructor(private readonly settings: RuntimeSettings) {}

  list(): OAuth2Instance[] {
    return this.settings.get('oauth2.providers').map(toInstance);
  }

  /** The configured instance, or `not_found` naming it. */
  get(name: string): OAuth2Instance {
    const found = this.find(name);
    if (!found) throw new AppError('not_found', `no OAuth2 provider instance ${JSON.stringify(name)} (runtime setting oauth2.providers)`);
    return found;
  }

  find(name: string): OAuth2Instance | undefined {
    const entry = this.settings.get('oauth2.providers').find((provider) => provider.instanceName === name);
    return entry && toInstance(entry);
  }
}

export function toInstance(entry: OAuth2ProviderSettings): OAuth2Instance {
  const common = { name: entry.instanceName, enableSignup: entry.enableSignup === true, signupNeedReview: entry.signupNeedReview === true };
  if (entry.github) {
    const { clientId, clientSecret, redirectUrl } = entry.github;
    return { ...common, kind: 'github', clientId, clientSecret, redirectUrl, identityIssuer: GITHUB_ISSUER, fingerprint: fingerprint(['github', clientId, clientSecret, redirectUrl]) };
  }
  const { clientId, clientSecret, redirectUrl, issuer } = entry.oidc;
  return { ...common, kind: 'oidc', clientId, clientSecret, redirectUrl, issuer, identityIssuer: issuer, fingerprint: fingerprint(['oidc', issuer, clientId, clientSecret, redirectUrl]) };
}

function fingerprint(parts: string[]): string {
  // A hash, so the client secret never sits in a Redis value or a cache key in clear.
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url').slice(0, 22);
}
