import { AppError } from '../../../errors/index.js';
import { emailClaim, isValidSubject, textClaim, type ProviderProfile } from './profile.js';

/**
 * The `oidc` variant: an OpenID Connect provider found by discovery from its issuer. The ID
 * token (signature, issuer, audience, expiry and nonce checked by openid-client) names the
 * subject; profile claims come from it or, when the provider keeps them out of ID tokens, from
 * the userinfo endpoint.
 */
export const OIDC_SCOPE = 'openid email profile';

export function oidcProfile(claims: Record<string, unknown>): ProviderProfile {
  if (!isValidSubject(claims.sub)) throw new AppError('unauthenticated', 'the provider answered without a usable subject ("sub" claim)');
  const username = textClaim(claims.preferred_username, 64) ?? textClaim(claims.nickname, 64);
  const name = textClaim(claims.name, 64);
  // An unverified address could belong to anyone; it is not even kept as a hint.
  const email = claims.email_verified === true ? emailClaim(claims.email) : undefined;
  return { subject: claims.sub, ...(username ? { username } : {}), ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

/** Whether a new account would gain anything from the userinfo endpoint. */
export function needsUserinfo(profile: ProviderProfile): boolean {
  return profile.username === undefined && profile.name === undefined && profile.email === undefined;
}
