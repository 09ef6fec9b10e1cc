import { AppError } from '../errors/app-error.js';

/**
 * Usernames: what people type to sign in and what others see in rooms. Normalised to NFKC so
 * visually identical forms (full-width letters, ligatures) are one name; uniqueness is on the
 * case-folded form, so "Alice" and "alice" cannot both exist.
 */
export const USERNAME_RULE = '3 to 32 letters, digits, "_", "-" or "." (letters of any script), starting with a letter or digit';

const MIN_CHARS = 3;
const MAX_CHARS = 32;
const ALLOWED = /^[\p{L}\p{N}][\p{L}\p{M}\p{N}_.-]*$/u;

export interface Username {
  /** NFKC form, as displayed. */
  name: string;
  /** Case-folded NFKC form: the unique key. */
  key: string;
}

export function parseUsername(raw: string, field = 'username'): Username {
  const name = raw.normalize('NFKC').trim();
  const length = [...name].length;
  if (length < MIN_CHARS || length > MAX_CHARS || !ALLOWED.test(name)) {
    throw AppError.invalid([{ key: field, message: `must be ${USERNAME_RULE}` }]);
  }
  return { name, key: usernameKey(name) };
}

/** The uniqueness key of an already valid name (also used to look names up). */
export function usernameKey(name: string): string {
  // toLowerCase after NFKC, then NFKC again: lower-casing can leave non-normalised sequences.
  return name.normalize('NFKC').toLowerCase().normalize('NFKC');
}
