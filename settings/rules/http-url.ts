import { isLoopbackHost } from '../../net/index.js';
import { quote } from './describe-value.js';

/**
 * Absolute http(s) URLs in provider settings (OAuth2 redirect URLs, OIDC issuers). Both are
 * compared byte for byte by providers, so they are checked, never rewritten.
 */
export interface HttpUrlRules {
  /** OIDC Discovery requires an https issuer; plain http is tolerated for a local test IdP. */
  readonly httpsUnlessLoopback: boolean;
  /** OIDC issuers carry no query (OIDC Discovery 4.3); neither carries a fragment (RFC 6749 3.1.2). */
  readonly allowQuery: boolean;
}

/** Answers why `text` is not acceptable, or null when it is. */
export function httpUrlProblem(text: string, rules: HttpUrlRules): string | null {
  // The WHATWG parser forgives "https:host" and stray spaces; a provider comparing the
  // stored text would not, so the text itself must already be a clean absolute URL.
  let url: URL | undefined;
  if (/^https?:\/\//i.test(text) && !/[\s\p{Cc}]/u.test(text)) {
    try {
      url = new URL(text);
    } catch {
      url = undefined;
    }
  }
  if (url === undefined) return `must be an absolute http(s) URL such as https://example.com/callback, got ${quote(text)}`;
  if (url.username !== '' || url.password !== '') return 'must not contain user:password credentials';
  if (rules.httpsUnlessLoopback && url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `must use https (http is allowed only for localhost), got ${quote(text)}`;
  }
  if (url.hash !== '' || text.includes('#')) return `must not have a fragment, got ${quote(text)}`;
  if (!rules.allowQuery && (url.search !== '' || text.includes('?'))) {
    return `must not have a query, got ${quote(text)}`;
  }
  return null;
}
