import test from 'ava';
import { allowlistEntries } from '../../settings/rules/email-allowlist.js';
import { accepts, rejects } from './registry-expect.js';

const ICE = 'webrtc.externalIceServers';
const CORS = 'cors.allowedOrigins';
const EMAIL = 'email.whitelistDomains';
const PUBLISH = 'rtmp.customPublishHost';

test('ICE: STUN and TURN URIs with host[:port]', (t) => {
  const value = [
    { urls: ['stun:stun.example.com', 'stun:stun.example.com:3478', 'stuns:203.0.113.9:5349', 'stun:[2001:db8::7]:3478'] },
    { urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349?transport=tcp'], username: 'svc', credential: 'pw' },
    { urls: ['stun:stun.example.com'], username: '', credential: '' },
  ];
  t.deepEqual(accepts(t, ICE, value), value);
});

test('ICE: malformed URIs are rejected, naming the element and URL', (t) => {
  const cases: Array<[string, string]> = [
    ['http://stun.example.com', 'urls[0] "http://stun.example.com" must start with stun:, stuns:, turn: or turns:'],
    ['STUN:stun.example.com', 'must start with stun:'],
    ['stun://stun.example.com:3478', 'must be stun:host[:port], without "//"'],
    ['stun:', 'has no host'],
    ['stun:stun.example.com:0', 'port "0" must be an integer in 1..=65535'],
    ['stun:stun.example.com:65536', 'port "65536" must be an integer in 1..=65535'],
    ['stun:stun.example.com:34x', 'port "34x"'],
    ['stun:stun.example.com/path', 'without path, fragment or user information'],
    ['stun:stun.example.com?transport=udp', 'only TURN URIs take ?transport=udp|tcp'],
    ['stun:-bad-.example.com', 'labels may contain only letters, digits and "-"'],
    ['stun:2001:db8::1', 'write IPv6 addresses in brackets'],
    ['stun:[2001:db8::zz]:3478', 'is not an IPv6 address'],
  ];
  for (const [url, fragment] of cases) {
    rejects(t, ICE, [{ urls: [url] }], fragment);
    rejects(t, ICE, [{ urls: ['stun:ok.example.com', url] }], `element 0: urls[1] ${JSON.stringify(url)}`);
  }
  rejects(t, ICE, [{ urls: ['turn:turn.example.com?transport=sctp'], username: 'u', credential: 'c' }], 'may only have the query ?transport=udp or ?transport=tcp');
});

test('ICE: TURN needs username and credential', (t) => {
  for (const extra of [{}, { username: 'svc' }, { credential: 'pw' }, { username: '', credential: 'pw' }]) {
    rejects(t, ICE, [{ urls: ['stun:stun.example.com'] }, { urls: ['turn:turn.example.com'], ...extra }], 'element 1: turn: and turns: URLs need both a non-empty username and credential');
  }
  rejects(t, ICE, [{ urls: ['turns:turn.example.com'] }], 'need both a non-empty username and credential');
});

test('ICE: element shape', (t) => {
  rejects(t, ICE, [{ urls: 'stun:stun.example.com' }], 'element 0: urls must be a non-empty array');
  rejects(t, ICE, [{}], 'urls must be a non-empty array of STUN/TURN URIs, got nothing');
  rejects(t, ICE, [{ urls: [3478] }], 'urls[0] must be a string, got 3478');
  rejects(t, ICE, [{ urls: ['stun:stun.example.com'], credentialType: 'password' }], 'element 0: unknown field "credentialType"');
  rejects(t, ICE, [{ urls: ['stun:stun.example.com'], username: 7 }], 'username must be a string, got 7');
  rejects(t, ICE, ['stun:stun.example.com'], 'element 0: must be an object, got string');
  rejects(t, ICE, { urls: ['stun:stun.example.com'] }, 'must be a JSON array of ICE server objects');
});

test('CORS: bare origins, stored in canonical form', (t) => {
  t.deepEqual(accepts(t, CORS, ['https://Watch.Example.com', 'http://localhost:5173', 'https://a.example.com:8443']), [
    'https://watch.example.com',
    'http://localhost:5173',
    'https://a.example.com:8443',
  ]);
});

test('CORS: paths, schemes, wildcards and duplicates are rejected', (t) => {
  rejects(t, CORS, ['https://watch.example.com/app'], 'element 0: "https://watch.example.com/app" has a path, query or fragment');
  rejects(t, CORS, ['https://ok.example.com', 'ftp://watch.example.com'], 'element 1: "ftp://watch.example.com" must use http or https');
  rejects(t, CORS, ['*'], 'element 0: "*" is not an origin');
  rejects(t, CORS, [''], 'element 0: must be a non-empty origin');
  rejects(t, CORS, [42], 'element 0: must be an origin string, got 42');
  rejects(t, CORS, ['https://watch.example.com', 'https://WATCH.example.com'], 'element 1: "https://watch.example.com" duplicates element 0');
  rejects(t, CORS, 'https://watch.example.com', 'must be a JSON array of distinct bare origins');
});

test('email allowlist: domains and addresses, whitespace around commas', (t) => {
  for (const value of ['example.com', 'a.example.co.uk', 'EXAMPLE.com', 'alice@example.com', 'a.b+tag@mail.example.org', 'example.com ,  bob@example.net', 'xn--bcher-kva.example']) {
    t.is(accepts(t, EMAIL, value), value);
  }
  t.deepEqual(allowlistEntries(' Example.com , bob@Example.net'), ['example.com', 'bob@example.net']);
  t.deepEqual(allowlistEntries(''), []);
});

test('email allowlist: malformed entries are rejected, naming the entry', (t) => {
  const cases: Array<[string, string]> = [
    ['localhost', '"localhost" is not a domain name: it must contain at least one dot'],
    ['example..com', '"example..com" is not a domain name: it has an empty label'],
    ['.example.com', 'has an empty label'],
    ['-example.com', 'may not start or end with "-"'],
    ['example-.com', 'may not start or end with "-"'],
    ['exa mple.com', 'labels may contain only letters, digits and "-"'],
    ['*.example.com', 'labels may contain only letters, digits and "-"'],
    ['10.0.0.1', 'all-numeric top-level label'],
    ['@example.com', '"@example.com" is not an email address: nothing before "@"'],
    ['alice@', 'is not an email address: its domain is empty'],
    ['alice@localhost', 'its domain must contain at least one dot'],
    ['al..ice@example.com', 'the part before "@" has characters or dots'],
    [`${'a'.repeat(65)}@example.com`, 'longer than 64 characters'],
    [`${'a'.repeat(64)}.com`, 'has a label longer than 63 characters'],
    ['example.com,', 'entry 2 of 2 is empty'],
    ['example.com,,example.org', 'entry 2 of 3 is empty'],
    ['   ', 'entry 1 of 1 is empty'],
    ['ok.example.com, bad', '"bad" is not a domain name'],
  ];
  for (const [value, fragment] of cases) rejects(t, EMAIL, value, fragment);
  rejects(t, EMAIL, null, 'must be a string of comma-separated domain names or email addresses');
});

test('RTMP publish host: host[:port] only', (t) => {
  const cases: Array<[unknown, string]> = [
    ['rtmp://live.example.com', 'must be host[:port] without a scheme; "rtmp://live.example.com" has one (drop "rtmp://")'],
    ['live.example.com/live', 'without a path, query or fragment'],
    ['live.example.com?x=1', 'without a path, query or fragment'],
    ['user@live.example.com', 'without user information'],
    ['live.example.com:0', 'port "0" must be an integer in 1..=65535'],
    ['live.example.com:', 'port "" must be an integer in 1..=65535'],
    [':1935', 'has no host'],
    ['live example.com', 'labels may contain only letters'],
    ['[::1', 'has "[" without a closing "]"'],
    ['[::1]x', 'has "x" after the IPv6 address'],
    ['::1', 'write IPv6 addresses in brackets'],
    [null, 'must be a string (empty, or host[:port] without scheme or path), got null'],
  ];
  for (const [value, fragment] of cases) rejects(t, PUBLISH, value, fragment);
  for (const value of ['live.example.com:65535', '[::1]', 'ingest-1']) accepts(t, PUBLISH, value);
});
