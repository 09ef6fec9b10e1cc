import { parse } from 'tldts';
import type { FieldIssue } from '../errors/index.js';
import { checkBareOrigin, isLoopbackHost } from '../net/index.js';
import type { StartupConfig } from './types.js';

/**
 * WebAuthn binds every passkey to the relying-party ID and checks the browser's origin on
 * every ceremony, so a mismatch here shows up later as "passkey failure" for every user.
 * The rules are the browser's: a secure origin, and an RP ID equal to the origin's host or
 * a registrable suffix of it.
 */
export function checkWebAuthn(webauthn: Pick<StartupConfig['webauthn'], 'rp_origin' | 'rp_id'>): FieldIssue[] {
  const issues: FieldIssue[] = [];
  const origin = checkBareOrigin(webauthn.rp_origin);
  let host: string | undefined;
  if (!origin.ok) {
    issues.push({ key: 'webauthn.rp_origin', message: `${origin.message}; use the exact origin browsers load the app from` });
  } else {
    const url = new URL(origin.origin);
    if (url.protocol === 'https:' || isLoopbackHost(url.hostname)) host = url.hostname;
    else {
      issues.push({
        key: 'webauthn.rp_origin',
        message: `"${webauthn.rp_origin}" must use https (browsers allow WebAuthn over http only on localhost)`,
      });
    }
  }

  const rpId = webauthn.rp_id;
  if (rpId === '') {
    issues.push({ key: 'webauthn.rp_id', message: "is required: the origin's host or a registrable suffix of it" });
  } else if (!/^[a-z0-9.[\]:-]+$/.test(rpId) || rpId.startsWith('.') || rpId.endsWith('.')) {
    issues.push({ key: 'webauthn.rp_id', message: `"${rpId}" must be a lower-case domain such as example.com, without scheme or port` });
  } else if (host !== undefined) {
    const problem = rpIdProblem(rpId, host);
    if (problem) issues.push({ key: 'webauthn.rp_id', message: problem });
  }

  return issues;
}

function rpIdProblem(rpId: string, host: string): string | undefined {
  if (rpId === host) return undefined;
  if (!host.endsWith('.' + rpId)) {
    return `"${rpId}" must equal the host of webauthn.rp_origin ("${host}") or be a registrable suffix of it`;
  }
  if (rpId === 'localhost') return undefined; // *.localhost origins on a developer machine
  const parsed = parse(rpId, { allowPrivateDomains: true });
  if (parsed.isIp || parsed.domain === null || parsed.publicSuffix === rpId) {
    return `"${rpId}" is a public suffix; use the registrable domain (for example the one directly under it)`;
  }
  return undefined;
}
