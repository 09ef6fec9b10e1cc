/**
 * The client address every per-address limit and the session list count by, one rule for HTTP,
 * the WebSocket upgrade and gRPC. Behind proxies (`server.trust_proxy`), X-Forwarded-For is
 * read from the right: each trusted proxy appends the address it was reached from, so entries
 * are believed only while the hop that wrote them is in `server.trusted_proxies`; the first
 * address not in those networks is the client. Everything left of it was written by the client
 * itself and is ignored. A peer outside the list is the client, whatever header it sends.
 * Decisions: docs/2026-11-26-edge-hardening.md.
 */
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import { inNetworks, parseNetwork, type IpNetwork } from './ip-network.js';

export const TRUSTED_PROXIES_KEY = 'server.trusted_proxies';

/** `trust_proxy` (without it the socket peer is the client) and `trusted_proxies` (validated at startup). */
// Written here rather than picked from the startup config's type, so net/ (which config/ uses
// to check addresses) depends on nothing above it.
export interface ClientAddressOptions {
  trust_proxy: boolean;
  trusted_proxies: string[];
}

/**
 * One X-Forwarded-For entry or socket peer as an address: IPv4-mapped IPv6 as the IPv4 it is,
 * a port (`1.2.3.4:5678`, `[::1]:80`, as some proxies write) dropped. Undefined when unreadable.
 */
export function parseAddress(text: string): ipaddr.IPv4 | ipaddr.IPv6 | undefined {
  const trimmed = text.trim();
  const bare = /^\[([^\]]+)\](?::\d+)?$/.exec(trimmed)?.[1] ?? /^(\d{1,3}(?:\.\d{1,3}){3}):\d+$/.exec(trimmed)?.[1] ?? trimmed;
  return ipaddr.isValid(bare) ? ipaddr.process(bare) : undefined;
}

export class ClientAddresses {
  private readonly networks: IpNetwork[];

  /** Invalid `trusted_proxies` entries throw; startup validation has refused them already. */
  constructor(private readonly options: ClientAddressOptions) {
    this.networks = options.trusted_proxies.map((text) => {
      const network = parseNetwork(text);
      if (!network) throw new Error(`${TRUSTED_PROXIES_KEY}: "${text}" is not a network such as 10.0.0.0/8 or ::1/128`);
      return network;
    });
  }

  /**
   * Whether the request came straight from a trusted proxy, whose X-Forwarded-* headers (the
   * client's address, scheme and host) may be believed at all.
   */
  fromTrustedProxy(req: IncomingMessage): boolean {
    const peer = req.socket.remoteAddress === undefined ? undefined : parseAddress(req.socket.remoteAddress);
    return this.options.trust_proxy && peer !== undefined && this.trusted(peer);
  }

  /** An HTTP request's or WebSocket upgrade's client. */
  ofRequest(req: IncomingMessage): string {
    return this.resolve(req.socket.remoteAddress, req.headers['x-forwarded-for']);
  }

  /**
   * The client's address from the socket peer (`req.socket.remoteAddress`, a gRPC peer without
   * its port) and every X-Forwarded-For value the request carried, in order.
   */
  resolve(peer: string | undefined, forwardedFor: ReadonlyArray<string | undefined> | string | undefined): string {
    const peerAddress = peer === undefined ? undefined : parseAddress(peer);
    if (!peerAddress) return peer || 'unknown';
    if (!this.options.trust_proxy || !this.trusted(peerAddress)) return peerAddress.toString();
    const values = typeof forwardedFor === 'string' ? [forwardedFor] : (forwardedFor ?? []);
    const hops = values.flatMap((value) => (value ?? '').split(',')).map((entry) => entry.trim()).filter((entry) => entry !== '');
    let client = peerAddress.toString();
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = parseAddress(hops[i]!);
      // A trusted proxy wrote it, but it is no address: nothing left of it can be believed.
      if (!hop) return client;
      client = hop.toString();
      if (!this.trusted(hop)) return client;
    }
    // Every hop is a trusted network: the left-most is as far as the chain can be followed.
    return client;
  }

  private trusted(address: ipaddr.IPv4 | ipaddr.IPv6): boolean {
    return inNetworks(address, this.networks);
  }
}
