/**
 * The ICE servers a voice participant gets (webrtc/ice-servers.ts): the runtime list,
 * the built-in STUN listener at its public host, and TURN credentials in the REST API form.
 */
import { createHmac } from 'node:crypto';
import test from 'ava';
import { defaultConfig } from '../../config/defaults.js';
import { builtInStun, iceServerSource } from '../../webrtc/ice-servers.js';

const defaults = defaultConfig();

const base = {
  stun: { ...defaults.stun, enabled: true, host: '0.0.0.0', port: 3478, public_host: '' },
  turn: { ...defaults.turn, urls: [] as string[], shared_secret: '', credential_ttl_seconds: 3600 },
  server: { public_url: 'https://watch.example.com/app' } as never,
  webauthn: { ...defaults.webauthn, rp_origin: 'http://localhost:8080', rp_id: 'localhost', rp_name: 'svc' },
};
const external = [{ urls: ['stun:stun.example.net:19302'] }];

test('the built-in STUN URL uses stun.public_host, else the host of server.public_url, else webauthn.rp_origin', (t) => {
  t.is(builtInStun(base), 'stun:watch.example.com:3478');
  t.is(builtInStun({ ...base, stun: { ...base.stun, public_host: '2001:db8::1', port: 3479 } }), 'stun:[2001:db8::1]:3479');
  t.is(builtInStun({ ...base, server: { public_url: '' } as never }), 'stun:localhost:3478');
  t.is(builtInStun({ ...base, stun: { ...base.stun, enabled: false } }), undefined);
});

test('TURN credentials: username <expiry>:<userId>, credential base64(HMAC-SHA1(secret, username))', (t) => {
  const now = 1_800_000_000_000;
  const source = iceServerSource({ ...base, turn: { ...base.turn, urls: ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349'], shared_secret: 's3cret', credential_ttl_seconds: 600 } }, () => now);
  const servers = source('guest:abc', external);
  t.deepEqual(servers.slice(0, 2), [...external, { urls: ['stun:watch.example.com:3478'] }]);
  const turn = servers[2]!;
  t.deepEqual(turn.urls, ['turn:turn.example.com:3478?transport=udp', 'turns:turn.example.com:5349']);
  t.is(turn.username, `${now / 1000 + 600}:guest:abc`);
  t.is(turn.credential, createHmac('sha1', 's3cret').update(turn.username!).digest('base64'));
  t.deepEqual(external, [{ urls: ['stun:stun.example.net:19302'] }], 'the runtime list is not changed');
});

test('without a TURN secret nor STUN, the runtime list alone', (t) => {
  const source = iceServerSource({ ...base, stun: { ...base.stun, enabled: false } });
  t.deepEqual(source('u1', external), external);
});
