/**
 * Where to go after signing in: the `next` query parameter when it is a path on this origin,
 * else the home page. Anything else (`//evil.example`, `https://…`, `/\evil`) is ignored, so a
 * crafted sign-in link cannot send someone to another site.
 */
export function safeNext(next: string | undefined | null): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  try {
    const url = new URL(next, window.location.origin);
    if (url.origin !== window.location.origin) return '/';
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '/';
  }
}

/** A link to another auth page that keeps the `next` parameter. */
export function withNext(path: string, next: string): string {
  return next === '/' ? path : `${path}?next=${encodeURIComponent(next)}`;
}

/**
 * A sign-in that leaves the page (OAuth2: the provider, then /oauth2/callback) keeps `next` in
 * this tab's sessionStorage, since the provider's redirect cannot carry it.
 */
const PENDING_NEXT_KEY = 'svc.auth.next';

export function rememberNext(next: string): void {
  try {
    if (next === '/') sessionStorage.removeItem(PENDING_NEXT_KEY);
    else sessionStorage.setItem(PENDING_NEXT_KEY, next);
  } catch {
    // Storage off (a privacy mode): the sign-in lands on the home page.
  }
}

/** The remembered `next` (checked again: storage is not trusted more than a query), once. */
export function takeRememberedNext(): string {
  try {
    const next = sessionStorage.getItem(PENDING_NEXT_KEY);
    sessionStorage.removeItem(PENDING_NEXT_KEY);
    return safeNext(next);
  } catch {
    return '/';
  }
}

/** Where the header's Sign in link comes back to: this page, unless it is an auth page itself. */
export function nextForHere(path: string): string {
  return /^\/(signin|signup|auth\/|oauth2\/)/.test(path) ? '/' : safeNext(path);
}
