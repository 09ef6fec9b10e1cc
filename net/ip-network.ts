/**
 * A network as startup keys list them (`server.trusted_proxies`, `media_proxy.allowed_networks`):
 * a CIDR, or a single address meaning /32 or /128.
 */
import ipaddr from 'ipaddr.js';

export type IpNetwork = [ipaddr.IPv4 | ipaddr.IPv6, number];

/** `10.0.0.0/8` as is, `10.0.0.1` as `10.0.0.1/32`; undefined when it is no network. */
export function parseNetwork(text: string): IpNetwork | undefined {
  const cidr = text.includes('/') ? text : `${text}/${text.includes(':') ? 128 : 32}`;
  if (!ipaddr.isValidCIDR(cidr)) return undefined;
  const [address, bits] = ipaddr.parseCIDR(cidr);
  // Addresses are compared after ipaddr.process(), which makes an IPv4-mapped one IPv4: so is
  // an IPv4-mapped network (::ffff:10.0.0.0/104 is 10.0.0.0/8).
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

/** Whether `address` (as ipaddr.process() gives it) is inside one of `networks`. */
export function inNetworks(address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly IpNetwork[]): boolean {
  return networks.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits));
}
