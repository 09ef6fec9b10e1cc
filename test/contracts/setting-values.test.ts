/**
 * The settings the API document says a group's write may hold are the registry's: the same keys,
 * and each value's rule gives the same answer as the registry's check on values either side of
 * it. Three values have rules no schema states (stated in their descriptions instead): for them
 * the schema only never refuses what the registry accepts.
 */
import test from 'ava';
import { SETTING_VALUES } from '../../contracts/http/setting-values.js';
import { settingDefinitions } from '../../settings/registry.js';

const STATED_IN_WORDS = new Set(['oauth2.providers', 'webrtc.externalIceServers', 'cors.allowedOrigins']);

const HOSTS = [
  '', 'example.com', 'a', '999', 'stream.example.com:1935', 'example.com:0', 'example.com:65535', 'example.com:65536', 'example.com:00080', 'example.com:',
  '1.2.3.4', '1.2.3.4:80', '01.2.3.4', '1.2.3.999', '256.1.1.1', '[::1]', '[::1]:1935', '[2001:db8::1:2:3:4:5]', '[::ffff:1.2.3.4]', '[1::2::3]', '::1',
  'rtmp://example.com', 'example.com/live', 'user@example.com', '-a.com', 'a-.com', 'a..com', 'example.com.', 'example.123', '3com.example', `${'a'.repeat(63)}.com`,
  `${'a'.repeat(64)}.com`, `${'a.'.repeat(126)}com`, `${'a.'.repeat(125)}com`, 'ex ample.com', 'exämple.com',
];
const ALLOWLISTS = [
  '', 'example.com', 'example.com, alice@example.org', ' example.com ,\texample.org\n', 'example', 'alice@example', '@example.com', 'a..b@example.com', 'a.b@example.com',
  `${'a'.repeat(64)}@example.com`, `${'a'.repeat(65)}@example.com`, 'example.com,', ',example.com', 'example.com,,example.org', 'a@b@example.com', 'example.1', "o'brien+tag@example.com", ' ',
];

function samplesFor(key: string, type: string): unknown[] {
  const common = [null, 'text', 1, 1.5, -1, 0, true, false, [], {}, '1', 'true'];
  if (type === 'i64' || type === 'u64') return [...common, 2, 10, 20, 90, 100, 999, 1000, 1001, 3650, 3651, 10000, 10001, 100000, 100001, 2 ** 53, -0];
  if (type === 'enum') return [...common, 'optional', 'required', 'forbidden', 'Optional'];
  if (key === 'rtmp.customPublishHost') return [...common, ...HOSTS];
  if (key === 'email.whitelistDomains') return [...common, ...ALLOWLISTS];
  if (key.startsWith('permissions.')) return [...common, ['send_chat'], ['send_chat', 'send_chat'], ['view_member_list'], ['view_member_list', 'use_webrtc'], ['nope'], ['send_chat', 'view_chat_history']];
  if (key === 'cors.allowedOrigins') return [...common, ['https://a.example'], ['https://a.example', 'https://A.example'], ['https://a.example/path'], ['nope']];
  if (key === 'webrtc.externalIceServers') return [...common, [{ urls: ['stun:stun.example.com:3478'] }], [{ urls: ['turn:t.example.com'] }], [{ urls: ['turn:t.example.com'], username: 'u', credential: 'c' }]];
  if (key === 'oauth2.providers') return [...common, [{ instanceName: 'gh', github: { clientId: 'i', clientSecret: 's', redirectUrl: 'https://svc.test/cb' } }], [{ instanceName: 'x' }]];
  return common;
}

test('each group states exactly the keys the registry holds', (t) => {
  const registry = [...new Set(settingDefinitions.map((definition) => definition.key))].sort();
  const documented = Object.entries(SETTING_VALUES)
    .flatMap(([group, values]) => Object.keys(values).map((name) => `${group}.${name}`))
    .sort();
  t.deepEqual(documented, registry);
});

test("each value's rule is the registry's on values either side of it", (t) => {
  const disagreements: string[] = [];
  for (const definition of settingDefinitions) {
    const schema = (SETTING_VALUES as unknown as Record<string, Record<string, { safeParse(value: unknown): { success: boolean } }>>)[definition.group]![definition.name]!;
    for (const value of samplesFor(definition.key, definition.type)) {
      const registry = definition.validate(value).ok;
      const stated = schema.safeParse(value).success;
      const agree = STATED_IN_WORDS.has(definition.key) ? stated || !registry : stated === registry;
      if (!agree) disagreements.push(`${definition.key} = ${JSON.stringify(value)}: registry ${registry ? 'accepts' : 'refuses'}, schema ${stated ? 'admits' : 'refuses'}`);
    }
  }
  t.deepEqual(disagreements, []);
});
