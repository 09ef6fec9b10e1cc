/**
 * Which addresses the media proxy may connect to (SSRF protection). A playlist item's URL is
 * chosen by room members, so without this rule any member could make the server read its own
 * loopback services, the cloud metadata endpoint or the private network. Only globally
 * routable unicast addresses pass, as ipaddr.js classifies them; an operator lists networks
 * that may be reached anyway in `media_proxy.allowed_networks` (tests allow 127.0.0.0/8).
 *
 * IPv6 forms that embed an IPv4 address are refused like the IPv4 they could reach:
 * IPv4-mapped `::ffff:a.b.c.d` is judged as that IPv4 address; IPv4-compatible `::a.b.c.d`
 * (all of ::/96, deprecated by RFC 4291, which ipaddr.js calls unicast) is refused as such,
 * since a host may route it to the embedded address; NAT64 (64:ff9b::/96, `rfc6052`), SIIT
 * (::ffff:0:0:0/96, `rfc6145`), 6to4 (2002::/16) and Teredo (2001::/32) are ipaddr.js ranges
 * other than unicast, so refused with the rest.
 */
import ipaddr from 'ipaddr.js';
import { AppError } from '../../errors/index.js';
import { inNetworks, parseNetwork, type IpNetwork } from '../../net/index.js';

export const ALLOWED_NETWORKS_KEY = 'media_proxy.allowed_networks';

const IPV4_COMPATIBLE: IpNetwork = ipaddr.parseCIDR('::/96');

export class AddressPolicy {
  private readonly networks: IpNetwork[];

  /** `networks`: CIDRs (or single addresses) allowed whatever their class; invalid entries throw. */
  constructor(networks: readonly string[] = []) {
    this.networks = networks.map((text) => {
      const network = parseNetwork(text);
      if (!network) throw new Error(`${ALLOWED_NETWORKS_KEY}: "${text}" is not a network in CIDR form`);
      return network;
    });
  }

  /** The address class that makes `address` refused, or undefined when it may be reached. */
  refusal(address: string): string | undefined {
    // process(): an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is judged as the IPv4 it is.
    const parsed = ipaddr.process(address);
    if (inNetworks(parsed, this.networks)) return undefined;
    const range = parsed.range();
    if (range !== 'unicast') return range;
    return parsed.kind() === 'ipv6' && parsed.match(IPV4_COMPATIBLE) ? 'ipv4Compatible' : undefined;
  }

  /** Throws `forbidden` naming the address class and the key that would allow it. */
  check(host: string, address: string): void {
    const range = this.refusal(address);
    if (range === undefined) return;
    const shown = host === address ? address : `${host} (${address})`;
    throw new AppError(
      'forbidden',
      `the media proxy does not connect to ${shown}: it is a ${range} address; an operator can allow its network in ${ALLOWED_NETWORKS_KEY}`,
    );
  }
}
