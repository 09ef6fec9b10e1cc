import test from 'ava';
import { isSameOrigin, type ReachedAs } from '../../net/same-origin.js';

const unknownScheme = (host: string | undefined): ReachedAs => ({ host, scheme: undefined });

test('the page origin matches the Host it sent, for 127.0.0.1, localhost, a LAN address, a domain and IPv6', (t) => {
  t.true(isSameOrigin('http://127.0.0.1:8080', unknownScheme('127.0.0.1:8080')));
  t.true(isSameOrigin('http://localhost:8080', unknownScheme('localhost:8080')));
  t.true(isSameOrigin('http://192.168.1.20:8080', unknownScheme('192.168.1.20:8080')));
  t.true(isSameOrigin('https://watch.example.com', unknownScheme('watch.example.com')));
  t.true(isSameOrigin('http://[::1]:8080', unknownScheme('[::1]:8080')));
  // Host names are case-insensitive; a default port may be written or not.
  t.true(isSameOrigin('https://watch.example.com', unknownScheme('Watch.Example.com:443')));
});

test('another host, another port or no Host at all is not the same origin', (t) => {
  t.false(isSameOrigin('http://127.0.0.1:8080', unknownScheme('localhost:8080')));
  t.false(isSameOrigin('http://localhost:8080', unknownScheme('127.0.0.1:8080')));
  t.false(isSameOrigin('http://127.0.0.1:9999', unknownScheme('127.0.0.1:8080')));
  t.false(isSameOrigin('https://evil.example.net', unknownScheme('watch.example.com')));
  t.false(isSameOrigin('http://127.0.0.1:8080', unknownScheme(undefined)));
  t.false(isSameOrigin('null', unknownScheme('127.0.0.1:8080')));
  // Anything a browser would not write as a Host is refused rather than parsed leniently.
  t.false(isSameOrigin('http://127.0.0.1:8080', unknownScheme('evil@127.0.0.1:8080')));
  t.false(isSameOrigin('http://127.0.0.1:8080/', unknownScheme('127.0.0.1:8080')));
});

test('where the scheme is known it must be the page\'s: an http page is not the https service on the same name', (t) => {
  t.true(isSameOrigin('https://watch.example.com', { host: 'watch.example.com', scheme: 'https' }));
  t.false(isSameOrigin('http://watch.example.com', { host: 'watch.example.com', scheme: 'https' }));
  t.false(isSameOrigin('https://127.0.0.1:8080', { host: '127.0.0.1:8080', scheme: 'http' }));
  // Unknown (plain http from a peer nobody trusts, maybe an unlisted TLS proxy): either.
  t.true(isSameOrigin('https://watch.example.com', unknownScheme('watch.example.com')));
  t.true(isSameOrigin('http://watch.example.com', unknownScheme('watch.example.com')));
});
