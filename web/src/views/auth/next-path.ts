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
