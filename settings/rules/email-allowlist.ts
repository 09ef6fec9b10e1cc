import type { ValidationResult } from '../definition.js';
import { describeValue, quote } from './describe-value.js';
import { domainNameProblem } from './domain-name.js';

/**
 * `email.whitelistDomains`: comma-separated entries, each a domain (`example.com`, allowing
 * every address at it) or one email address (`alice@example.com`). Whitespace around commas
 * is allowed; an empty string is an empty list, which the spec says rejects nothing.
 */
export const EMAIL_ALLOWLIST_RULE = 'comma-separated domain names or email addresses; empty allowed';

// RFC 5322 dot-atom: the unquoted local parts real mailboxes use. Quoted local parts are
// valid mail syntax but no registration form produces them.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const MAX_LOCAL_PART = 64;

export function checkEmailAllowlist(value: unknown): ValidationResult<string> {
  if (typeof value !== 'string') {
    return { ok: false, message: `must be a string of ${EMAIL_ALLOWLIST_RULE}, got ${describeValue(value)}` };
  }
  if (value === '') return { ok: true, value };
  const entries = value.split(',').map((entry) => entry.trim());
  for (const [index, entry] of entries.entries()) {
    if (entry === '') {
      return { ok: false, message: `entry ${index + 1} of ${entries.length} is empty (a stray comma?); expected ${EMAIL_ALLOWLIST_RULE}` };
    }
    const problem = entryProblem(entry);
    if (problem !== null) return { ok: false, message: problem };
  }
  return { ok: true, value };
}

/** The entries of a valid allowlist value, lower-cased for case-insensitive matching. */
export function allowlistEntries(value: string): string[] {
  return value
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry !== '');
}

function entryProblem(entry: string): string | null {
  const at = entry.lastIndexOf('@');
  if (at < 0) {
    const problem = domainNameProblem(entry, { requireDot: true });
    return problem === null ? null : `${quote(entry)} is not a domain name: it ${problem}`;
  }
  const local = entry.slice(0, at);
  const domain = entry.slice(at + 1);
  const prefix = `${quote(entry)} is not an email address:`;
  if (local === '') return `${prefix} nothing before "@" (write a bare domain to allow all of it)`;
  if (local.length > MAX_LOCAL_PART) return `${prefix} the part before "@" is longer than ${MAX_LOCAL_PART} characters`;
  if (!LOCAL_PART.test(local)) return `${prefix} the part before "@" has characters or dots an address may not have`;
  const problem = domainNameProblem(domain, { requireDot: true });
  return problem === null ? null : `${prefix} its domain ${problem}`;
}
