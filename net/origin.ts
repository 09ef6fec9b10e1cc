/**
 * A browser origin as it appears in the `Origin` header: scheme://host[:port], nothing else.
 * Used by the startup CORS list, the runtime `cors.allowedOrigins` setting and WebAuthn.
 */
export type OriginCheck = { ok: true; origin: string } | { ok: false; message: string };

export function checkBareOrigin(text: string): OriginCheck {
  if (typeof text !== 'string' || text.length === 0) return { ok: false, message: 'must be a non-empty origin such as https://example.com' };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, message: `"${text}" is not an origin (expected scheme://host[:port])` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `"${text}" must use http or https` };
  }
  if (url.username || url.password) return { ok: false, message: `"${text}" must not contain credentials` };
  // URL normalises "https://a.com" to pathname "/", so compare against the origin itself.
  if (url.pathname !== '/' || text.replace(/(?<!\/)\/+$/, '') !== text || url.search || url.hash) {
    return { ok: false, message: `"${text}" has a path, query or fragment; an origin is only scheme://host[:port] (try "${url.origin}")` };
  }
  if (url.origin !== text.toLowerCase() && url.origin !== text) {
    return { ok: false, message: `"${text}" is not in canonical origin form (expected "${url.origin}")` };
  }
  return { ok: true, origin: url.origin };
}

export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]' || hostname.endsWith('.localhost');
}
