/**
 * The links in the service's emails (accounts/email/messages.ts, built in
 * accounts/methods/email-signup.ts and password-reset.ts):
 * - `/auth/confirm-email?email=…&code=…`, the signup confirmation;
 * - `/auth/reset?email=…&code=…`, the password reset, and `/auth/reset?email=…` without a
 *   code, from the "you already have an account" email.
 * The sign-up and sign-in pages read them once and open their email step with the address and
 * code filled in. The code then leaves the address bar, so history does not keep it.
 */
import { useEffect, useState } from 'preact/hooks';
import { t } from '../i18n/i18n.js';

export type EmailLinkKind = 'confirm-email' | 'reset';

export interface EmailLink {
  /** The address from the link, or '' when it has none or it is not an address. */
  email: string;
  /** The code from the link, or '' when it has none or it is not a code. */
  code: string;
  /** What is wrong with the link (none when nothing is); `linkProblem` says it to the person. */
  faults: EmailLinkFault[];
}

/** One thing wrong with a link: at most one about its address and one about its code. */
export type EmailLinkFault = 'noEmail' | 'badEmail' | 'noCode' | 'badCode';

/** accounts/email/codes.ts: eight digits. A mangled link (cut short, run into text) fails here, before a password is typed. */
const CODE = /^\d{8}$/;
/** The shape the email field's `type="email"` checks, enough to tell an address from a damaged parameter. */
const EMAIL = /^[^\s@]+@[^\s@]+$/;
const MAX_EMAIL_LENGTH = 320;

/** The link's parameters and what is wrong with them. A reset link needs no code: without one it starts the reset for the address. */
export function parseEmailLink(kind: EmailLinkKind, search: string): EmailLink {
  const query = new URLSearchParams(search);
  const rawEmail = query.get('email')?.trim() ?? '';
  const rawCode = query.get('code')?.trim() ?? '';
  const email = EMAIL.test(rawEmail) && rawEmail.length <= MAX_EMAIL_LENGTH ? rawEmail : '';
  const code = CODE.test(rawCode) ? rawCode : '';
  const faults: EmailLinkFault[] = [];
  if (!rawEmail) faults.push('noEmail');
  else if (!email) faults.push('badEmail');
  if (!rawCode && kind === 'confirm-email') faults.push('noCode');
  else if (rawCode && !code) faults.push('badCode');
  return { email, code: faults.length > 0 ? '' : code, faults };
}

/** What is wrong with the link as a sentence in the page's language (call it while rendering), or null when nothing is. */
export function linkProblem(link: EmailLink | null): string | null {
  const [first, second] = (link?.faults ?? []).map((fault) => t(`auth.link.${fault}`));
  if (first === undefined) return null;
  return second === undefined ? t('auth.link.damaged', { fault: first }) : t('auth.link.damagedTwice', { first, second });
}

/**
 * The email link the page was opened with, read once (null on the page's own route, also when
 * the router moved the same page there from the link's route). The code
 * is removed from the address bar right away: it works once, and a reload or the history should
 * not offer it again. The address stays, so a reload still fills it in.
 */
export function useEmailLink(kind: EmailLinkKind | undefined): EmailLink | null {
  const [link] = useState(() => (kind ? parseEmailLink(kind, window.location.search) : null));
  useEffect(() => {
    if (!kind) return;
    const query = new URLSearchParams(window.location.search);
    if (!query.has('code')) return;
    query.delete('code');
    const rest = query.toString();
    // The router keeps its own copy of the URL; the page holds the code in state from here on.
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${rest ? `?${rest}` : ''}`);
  }, [kind]);
  return kind ? link : null;
}
