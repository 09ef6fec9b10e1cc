import { AppError } from '../../errors/index.js';
import type { RuntimeSettings } from '../../settings/index.js';
import { allowlistEntries } from '../../settings/index.js';
import { domainNameProblem } from '../../settings/index.js';

/** An email address as typed, and the key accounts are unique and found by. */
export interface EmailAddress {
  address: string;
  /** Lower-cased: mailbox providers treat addresses case-insensitively, and so does uniqueness. */
  key: string;
  domain: string;
}

const MAX_ADDRESS_CHARS = 254;
// The dot-atom local parts registration forms produce (as the allowlist rule accepts them).
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;

export function parseEmail(raw: string, field = 'email'): EmailAddress {
  const address = raw.trim();
  const at = address.lastIndexOf('@');
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const problem =
    address.length > MAX_ADDRESS_CHARS
      ? `is longer than ${MAX_ADDRESS_CHARS} characters`
      : at <= 0 || local.length > 64 || !LOCAL_PART.test(local)
        ? 'is not an email address (name@example.com)'
        : domainNameProblem(domain, { requireDot: true }) !== null
          ? `has a domain that ${domainNameProblem(domain, { requireDot: true })}`
          : null;
  if (problem !== null) throw AppError.invalid([{ key: field, message: problem }]);
  const key = address.toLowerCase();
  return { address, key, domain: key.slice(at + 1) };
}

/**
 * The spec's allowlist rule: off, or on with an empty list, admits everyone; otherwise an
 * entry admits the address it names or every address at the domain it names, compared
 * case-insensitively. A domain entry does not admit its subdomains: `example.com` allowing
 * `eng.example.com` would let whoever controls any subdomain in.
 */
export function emailAllowed(settings: RuntimeSettings, email: EmailAddress): boolean {
  if (!settings.get('email.whitelistEnabled')) return true;
  const entries = allowlistEntries(settings.get('email.whitelistDomains'));
  if (entries.length === 0) return true;
  return entries.some((entry) => (entry.includes('@') ? entry === email.key : entry === email.domain));
}
