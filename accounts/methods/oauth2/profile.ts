/**
 * Who the provider says signed in, reduced to what svc uses: the subject that names the
 * identity for good, and hints for a new account's username and display name. Nothing here is
 * used to find an existing account: accounts are found by (instance, subject) only, never by
 * email or name, which a provider may let anyone claim.
 */
export interface ProviderProfile {
  /** Stable identifier at the provider (OIDC `sub`, GitHub's numeric user id). */
  subject: string;
  /** The provider's handle (OIDC `preferred_username`, GitHub `login`). */
  username?: string;
  name?: string;
  /** Only when the provider says it verified the address. */
  email?: string;
}

/** Longest subject accepted (OIDC Core 2 limits `sub` to 255 ASCII characters). */
export const MAX_SUBJECT_CHARS = 255;

/** A subject as stored: non-empty, bounded and printable; anything else is a provider fault. */
export function isValidSubject(subject: unknown): subject is string {
  // eslint-disable-next-line no-control-regex
  return typeof subject === 'string' && subject.length > 0 && subject.length <= MAX_SUBJECT_CHARS && !/[\u0000-\u001f\u007f]/.test(subject);
}

/** A trimmed string claim, or undefined when absent, empty or not a string. */
export function textClaim(value: unknown, maxChars: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  // eslint-disable-next-line no-control-regex
  const text = value.replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return text === '' ? undefined : [...text].slice(0, maxChars).join('');
}

/** A plausible address (the provider verified it; this only guards the column). */
export function emailClaim(value: unknown): string | undefined {
  return typeof value === 'string' && value.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(value) ? value : undefined;
}
