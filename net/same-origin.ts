/**
 * Whether a browser's `Origin` is the address the request itself reached: the page and the
 * socket are on one origin, however the browser got there (127.0.0.1, localhost, a LAN address,
 * a domain). This is the rule browsers apply to their own same-origin requests, so it admits
 * nothing a cross-site page could produce: a foreign page cannot set the Host its request
 * carries. Decisions: docs/2026-11-26-same-origin-sockets.md.
 */
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** How the browser reached us, as far as we can know it. */
export interface ReachedAs {
  /** `host[:port]` the browser addressed (Host, or a trusted proxy's X-Forwarded-Host). */
  host: string | undefined;
  /**
   * The browser's scheme where it is known: our own TLS, or a trusted proxy's
   * X-Forwarded-Proto. Undefined on plain http from a peer we do not trust: that peer may be a
   * TLS-terminating proxy nobody listed, so either scheme may be the page's.
   */
  scheme: 'http' | 'https' | undefined;
}

/** A host as browsers write it in Host: name, IPv4 or [IPv6], optional port; nothing else. */
const HOST = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

export function reachedAs(req: IncomingMessage, fromTrustedProxy: boolean): ReachedAs {
  const forwardedHost = fromTrustedProxy ? firstValue(req.headers['x-forwarded-host']) : undefined;
  const forwardedProto = fromTrustedProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const ownTls = (req.socket as Partial<TLSSocket>).encrypted === true;
  let scheme: ReachedAs['scheme'];
  if (forwardedProto === 'https' || forwardedProto === 'http') scheme = forwardedProto;
  else if (ownTls) scheme = 'https';
  return { host: forwardedHost ?? req.headers.host, scheme };
}

/**
 * True when `origin` (an Origin header) names the same host and port as `reached.host`, with
 * the reached scheme when that is known. Ports compare as browsers do: `https://a.example` is
 * `a.example:443`, whichever of the two forms the Host header uses.
 */
export function isSameOrigin(origin: string, reached: ReachedAs): boolean {
  const host = reached.host?.trim().toLowerCase();
  if (!host || !HOST.test(host)) return false;
  let page: URL;
  try {
    page = new URL(origin);
  } catch {
    return false;
  }
  if (page.protocol !== 'http:' && page.protocol !== 'https:') return false;
  if (page.origin !== origin.toLowerCase() && page.origin !== origin) return false;
  if (reached.scheme !== undefined && page.protocol !== `${reached.scheme}:`) return false;
  let addressed: URL;
  try {
    addressed = new URL(`${page.protocol}//${host}`);
  } catch {
    return false;
  }
  return addressed.origin === page.origin;
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const text = Array.isArray(header) ? header[0] : header;
  const first = text?.split(',')[0]?.trim();
  return first ? first : undefined;
}
