import test from 'ava';
import { ClientAddresses } from '../../net/client-address.js';

const behind = (...trusted: string[]) => new ClientAddresses({ trust_proxy: true, trusted_proxies: trusted });

test('without trust_proxy the peer is the client, whatever X-Forwarded-For says', (t) => {
  const addresses = new ClientAddresses({ trust_proxy: false, trusted_proxies: [] });
  t.is(addresses.resolve('203.0.113.9', '198.51.100.1'), '203.0.113.9');
  t.is(addresses.resolve('::ffff:203.0.113.9', undefined), '203.0.113.9');
});

test('a peer outside the trusted networks is the client: its header is not read', (t) => {
  t.is(behind('10.0.0.0/8').resolve('203.0.113.9', '198.51.100.1'), '203.0.113.9');
});

test('the right-most entry outside the trusted networks is the client; entries left of it are ignored', (t) => {
  const addresses = behind('127.0.0.1');
  t.is(addresses.resolve('127.0.0.1', '198.51.100.1'), '198.51.100.1');
  // A client that wrote its own header: the proxy appended the real address.
  t.is(addresses.resolve('127.0.0.1', '1.2.3.4, 198.51.100.1'), '198.51.100.1');
  t.is(addresses.resolve('127.0.0.1', ['9.9.9.9, 1.2.3.4', '198.51.100.1']), '198.51.100.1');
});

test('a chain of trusted proxies is walked from the right', (t) => {
  // CDN edge (203.0.113.0/24) -> ingress (10.0.0.5) -> gateway.
  const addresses = behind('10.0.0.0/8', '203.0.113.0/24');
  t.is(addresses.resolve('10.0.0.5', '6.6.6.6, 198.51.100.7, 203.0.113.20'), '198.51.100.7');
  // Every hop trusted: the left-most is as far as the chain goes.
  t.is(addresses.resolve('10.0.0.5', '10.1.2.3, 203.0.113.20'), '10.1.2.3');
  // No header at all: the trusted peer itself.
  t.is(addresses.resolve('10.0.0.5', undefined), '10.0.0.5');
});

test('IPv6, IPv4-mapped forms and ports are read as addresses', (t) => {
  const addresses = behind('::1/128', '127.0.0.0/8');
  t.is(addresses.resolve('::1', '2001:db8::1'), '2001:db8::1');
  t.is(addresses.resolve('::ffff:127.0.0.1', '198.51.100.1:4711'), '198.51.100.1');
  t.is(addresses.resolve('127.0.0.1', '[2001:db8::2]:443'), '2001:db8::2');
  t.is(addresses.resolve('127.0.0.1', '::ffff:198.51.100.3'), '198.51.100.3');
  // A mapped address in the trusted list matches the IPv4 peer.
  t.is(behind('::ffff:10.0.0.0/104').resolve('10.0.0.5', '198.51.100.4'), '198.51.100.4');
});

test('an entry that is no address ends the walk at the trusted hop that wrote it', (t) => {
  const addresses = behind('127.0.0.1', '10.0.0.0/8');
  t.is(addresses.resolve('127.0.0.1', '198.51.100.1, unknown, 10.0.0.7'), '10.0.0.7');
  t.is(addresses.resolve('127.0.0.1', 'garbage'), '127.0.0.1');
});

test('an invalid trusted network throws naming the key', (t) => {
  t.throws(() => behind('10.0.0.0/33'), { message: /server\.trusted_proxies: "10\.0\.0\.0\/33"/ });
});
