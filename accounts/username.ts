import { AppError } from '../errors/index.js';
import { foldText } from '../contracts/text.js';
import { USERNAME_CHARS, USERNAME_RULE, usernameInput } from '../contracts/account-rules.js';

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

/**
 * The rule is the API document's (`usernamePattern()`), on the name as sent: then trimmed and
 * normalised. The pattern admits only characters whose NFKC form keeps the name within the rule
 * (contracts/account-rules.ts), so the stored form is checked once more only as a safeguard.
 */
export function parseUsername(raw: string, field = 'username'): Username {
  const refused = (): AppError => AppError.invalid([{ key: field, message: `must be ${USERNAME_RULE}` }]);
  if (!usernameInput().test(raw)) throw refused();
  const name = raw.trim().normalize('NFKC');
  if (!USERNAME_CHARS.test(name)) throw refused();
  return { name, key: usernameKey(name) };
}

/** The uniqueness key of an already valid name (also used to look names up). */
export function usernameKey(name: string): string {
  return foldText(name);
}
