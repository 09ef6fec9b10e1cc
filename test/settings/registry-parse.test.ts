import test, { type ExecutionContext } from 'ava';
import { settingDefinitions } from '../../settings/registry.js';
import { definition, expectAccepted, expectRejected } from './registry-expect.js';

function parses(t: ExecutionContext, key: string, raw: string): unknown {
  return expectAccepted(t, definition(key).parse(raw), `parse ${key}=${raw}`);
}

function parseFails(t: ExecutionContext, key: string, raw: string, fragment: string): void {
  expectRejected(t, key, definition(key).parse(raw), fragment, `parse ${key}=${raw}`);
}

test('bool: only true and false', (t) => {
  for (const d of settingDefinitions.filter((x) => x.type === 'bool')) {
    t.is(parses(t, d.key, 'true'), true);
    t.is(parses(t, d.key, 'false'), false);
    for (const raw of ['yes', 'no', 'True', 'FALSE', '1', '0', '', ' true', 'true ', 'on']) {
      parseFails(t, d.key, raw, `must be true or false, got ${JSON.stringify(raw)}`);
    }
  }
});

test('integers: strict decimal text', (t) => {
  const key = 'server.maxRoomsPerUser';
  t.is(parses(t, key, '12'), 12);
  t.is(parses(t, key, '1000'), 1000);
  for (const raw of ['12abc', '1e3', '', ' 12', '12 ', '+12', '0x10', '12.0', '1_000', 'ten']) {
    parseFails(t, key, raw, `must be an integer in 1..=1000, got ${JSON.stringify(raw)} (not a decimal integer)`);
  }
  parseFails(t, key, '99999999999999999999', '(too large)');
  parseFails(t, key, '1001', 'must be an integer in 1..=1000, got 1001');
  t.is(parses(t, 'chat.maxMessagesPerRoom', '0'), 0);
  parseFails(t, 'chat.maxMessagesPerRoom', '-5', 'must be an integer in 0..=100000 (0 means unlimited), got -5');
});

test('enum and string: the raw text is the value', (t) => {
  t.is(parses(t, 'room.passwordPolicy', 'forbidden'), 'forbidden');
  parseFails(t, 'room.passwordPolicy', '"forbidden"', 'must be one of optional, required, forbidden');
  t.is(parses(t, 'email.whitelistDomains', 'example.com, bob@example.org'), 'example.com, bob@example.org');
  t.is(parses(t, 'email.whitelistDomains', ''), '');
  t.is(parses(t, 'rtmp.customPublishHost', 'live.example.com:1935'), 'live.example.com:1935');
  parseFails(t, 'rtmp.customPublishHost', '"live.example.com"', 'must be host[:port]');
});

test('json: decoded, then validated', (t) => {
  t.deepEqual(parses(t, 'permissions.guestDefaultPermissions', '["use_webrtc"]'), ['use_webrtc']);
  t.deepEqual(parses(t, 'cors.allowedOrigins', '[]'), []);
  t.deepEqual(parses(t, 'webrtc.externalIceServers', '[{"urls":["stun:stun.example.com:3478"]}]'), [{ urls: ['stun:stun.example.com:3478'] }]);
  parseFails(t, 'permissions.guestDefaultPermissions', '["send_chat"]', '"send_chat" is above the guest ceiling');
  parseFails(t, 'oauth2.providers', '{}', 'must be a JSON array of provider objects, got an object');
});

test('json: syntax errors say so and show an example', (t) => {
  for (const d of settingDefinitions.filter((x) => x.type === 'json')) {
    for (const raw of ['["send_chat"', 'send_chat', "['send_chat']", '', '[1,]']) {
      parseFails(t, d.key, raw, 'is not valid JSON (');
      parseFails(t, d.key, raw, 'expected JSON such as [');
    }
  }
});

test('every kind of setting parses its own default in text form', (t) => {
  for (const d of settingDefinitions) {
    const raw = d.type === 'json' ? JSON.stringify(d.default) : String(d.default);
    t.deepEqual(parses(t, d.key, raw), d.default, d.key);
  }
});
