import { AppError } from '../errors/app-error.js';
import { foldText } from '../contracts/text.js';
import { USERNAME_CHARS, USERNAME_MAX_CHARS, USERNAME_MIN_CHARS, USERNAME_RULE } from '../contracts/account-rules.js';

export { USERNAME_RULE };

/**
 * Usernames: what people type to sign in and what others see in rooms. Normalised to NFKC so
 * visually identical forms (full-width letters, ligatures) are one name; uniqueness is on the
 * case-folded form, so "Alice" and "alice" cannot both exist.
 */

export interface Username {
  /** NFKC form, as displayed. */
  name: string;
  /** Case-folded NFKC form: the unique key. */
  key: string;
}

export function parseUsername(raw: string, field = 'username'): Username {
  const name = raw.normalize('NFKC').trim();
  const length = [...name].length;
  if (length < USERNAME_MIN_CHARS || length > USERNAME_MAX_CHARS || !USERNAME_CHARS.test(name)) {
    throw AppError.invalid([{ key: field, message: `must be ${USERNAME_RULE}` }]);
  }
  return { name, key: usernameKey(name) };
}

/** The uniqueness key of an already valid name (also used to look names up). */
export function usernameKey(name: string): string {
  return foldText(name);
}
