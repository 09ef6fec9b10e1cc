/**
 * Checks of a connection's fields that every connector shares (no network): the server URL is
 * an absolute http(s) URL without credentials in it (they belong in `username` and `secret`,
 * which are sealed; a URL is shown to everyone who may use the library), and the lengths fit.
 */
import type { FieldIssue } from '../../errors/index.js';
import type { LibraryAccess } from './connector.js';

export const LIBRARY_LIMITS = {
  nameMaxChars: 80,
  urlMaxChars: 2048,
  usernameMaxChars: 256,
  secretMaxChars: 4096,
  /** Libraries one user, or one room, may connect. */
  perOwner: 20,
} as const;

export function checkServerUrl(url: string): FieldIssue[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [{ key: 'url', message: 'must be an absolute URL such as https://files.example.com/dav/' }];
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return [{ key: 'url', message: 'must be an http or https URL' }];
  if (parsed.username || parsed.password) return [{ key: 'url', message: 'must not hold credentials: put them in username and secret, which are stored encrypted' }];
  if (parsed.hash) return [{ key: 'url', message: 'must not have a #fragment' }];
  return [];
}

export function checkAccessFields(access: LibraryAccess): FieldIssue[] {
  const issues: FieldIssue[] = [];
  if (access.url.length > LIBRARY_LIMITS.urlMaxChars) issues.push({ key: 'url', message: `must be at most ${LIBRARY_LIMITS.urlMaxChars} characters` });
  else issues.push(...checkServerUrl(access.url));
  if (access.username.length > LIBRARY_LIMITS.usernameMaxChars) issues.push({ key: 'username', message: `must be at most ${LIBRARY_LIMITS.usernameMaxChars} characters` });
  if (/[\r\n:]/.test(access.username)) issues.push({ key: 'username', message: 'must not contain ":" or line breaks' });
  if (access.secret.length > LIBRARY_LIMITS.secretMaxChars) issues.push({ key: 'secret', message: `must be at most ${LIBRARY_LIMITS.secretMaxChars} characters` });
  return issues;
}
