import { isIPv4, isIPv6 } from 'node:net';
import { domainNameProblem } from './domain-name.js';

/**
 * `host[:port]` as used by the RTMP publish host and STUN/TURN URIs: a host name, an IPv4
 * address or a bracketed IPv6 address, then an optional port 1..=65535. Nothing else: no
 * scheme, user info, path or query, which callers check for first to give a better message.
 */
export interface HostPort {
  readonly host: string;
  readonly port: number | undefined;
}

export type HostPortResult = { ok: true; value: HostPort } | { ok: false; problem: string };

const PORT = /^[0-9]{1,5}$/;

export function parseHostPort(text: string): HostPortResult {
  let host: string;
  let portText: string | undefined;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return { ok: false, problem: 'has "[" without a closing "]"' };
    host = text.slice(0, close + 1);
    const rest = text.slice(close + 1);
    if (rest !== '' && !rest.startsWith(':')) return { ok: false, problem: `has ${JSON.stringify(rest)} after the IPv6 address` };
    portText = rest === '' ? undefined : rest.slice(1);
    if (!isIPv6(host.slice(1, -1))) return { ok: false, problem: `${JSON.stringify(host)} is not an IPv6 address` };
  } else {
    const parts = text.split(':');
    if (parts.length > 2) return { ok: false, problem: 'has more than one ":"; write IPv6 addresses in brackets, as [::1]:3478' };
    host = parts[0] ?? '';
    portText = parts[1];
    if (host === '') return { ok: false, problem: 'has no host' };
    if (!isIPv4(host)) {
      const problem = domainNameProblem(host, { requireDot: false });
      if (problem !== null) return { ok: false, problem: `host ${JSON.stringify(host)} ${problem}` };
    }
  }
  if (portText === undefined) return { ok: true, value: { host, port: undefined } };
  const port = PORT.test(portText) ? Number(portText) : NaN;
  if (!(port >= 1 && port <= 65535)) {
    return { ok: false, problem: `port ${JSON.stringify(portText)} must be an integer in 1..=65535` };
  }
  return { ok: true, value: { host, port } };
}
