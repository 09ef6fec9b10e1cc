import { randomInt } from 'node:crypto';
import { parseUsername, type Username } from '../../username.js';
import type { ProviderProfile } from './profile.js';

/**
 * The username and display name of an account created from a provider identity. The user
 * never typed a username, so one is derived: the provider's handle, else the email's local
 * part, else the name, each reduced to the username rule (characters outside it become "_",
 * a leading separator is dropped), else "user". When the name is taken, a suffix of four
 * random digits is added ("alice-4821"), tried a few times; the user can see the result in
 * their profile. Accounts are never merged with an existing one by name or email.
 */
const BASE_MAX_CHARS = 27;
const FALLBACK = 'user';
/** The plain name and this many suffixed ones; a collision on every one is practically impossible. */
export const SUFFIXED_ATTEMPTS = 8;

export function usernameBase(profile: ProviderProfile): string {
  const sources = [profile.username, profile.email?.split('@')[0], profile.name];
  for (const source of sources) {
    if (source === undefined) continue;
    const reduced = reduce(source);
    if (reduced !== undefined) return reduced;
  }
  return FALLBACK;
}

/** The usernames to try, in order: the base, then suffixed variants. */
export function* usernameCandidates(base: string): Generator<Username> {
  yield parseUsername(base);
  for (let i = 0; i < SUFFIXED_ATTEMPTS; i++) yield parseUsername(`${base}-${randomInt(1000, 10_000)}`);
}

export function displayNameFor(profile: ProviderProfile, username: string): string {
  return profile.name ?? profile.username ?? username;
}

function reduce(source: string): string | undefined {
  const replaced = source
    .normalize('NFKC')
    .trim()
    .replace(/[^\p{L}\p{M}\p{N}_.-]+/gu, '_')
    .replace(/^[^\p{L}\p{N}]+/u, '');
  const clipped = [...replaced].slice(0, BASE_MAX_CHARS).join('').replace(/(?<![_.-])[_.-]+$/u, '');
  try {
    return parseUsername(clipped).name;
  } catch {
    return undefined;
  }
}
