import test from 'ava';
import { PERMISSIONS } from '../../contracts/permissions/names.js';
import type { SettingType } from '../../settings/definition.js';
import {
  defaultValue,
  definitionOf,
  definitionsOfGroup,
  findDefinition,
  isSettingKey,
  settingDefinitions,
  settingGroups,
  type SettingKey,
} from '../../settings/registry.js';
import { accepts, definition, expectAccepted, expectRejected, rejects } from './registry-expect.js';

// Spec 2.1, transcribed independently of the registry: key, type and default, in spec order.
const SPEC: ReadonlyArray<readonly [string, SettingType, unknown]> = [
  ['server.allowRoomCreation', 'bool', true],
  ['server.maxRoomsPerUser', 'i64', 10],
  ['server.maxMembersPerRoom', 'i64', 100],
  ['server.maxChatMessages', 'u64', 500],
  ['permissions.adminDefaultPermissions', 'json', [...PERMISSIONS]],
  [
    'permissions.memberDefaultPermissions',
    'json',
    ['send_chat', 'view_chat_history', 'view_member_list', 'view_media_resources', 'create_media_resource', 'control_playback', 'use_webrtc', 'vote', 'share_screen'],
  ],
  ['permissions.guestDefaultPermissions', 'json', ['view_member_list', 'view_chat_history']],
  ['room.disableCreateRoom', 'bool', false],
  ['room.createRoomNeedReview', 'bool', false],
  ['room.passwordPolicy', 'enum', 'optional'],
  ['user.enablePasswordSignup', 'bool', false],
  ['user.passwordSignupNeedReview', 'bool', false],
  ['user.enableEmailSignup', 'bool', false],
  ['user.emailSignupNeedReview', 'bool', false],
  ['user.enableWebauthnSignup', 'bool', false],
  ['user.webauthnSignupNeedReview', 'bool', false],
  ['user.enableGuest', 'bool', true],
  ['oauth2.providers', 'json', []],
  ['proxy.movieProxy', 'bool', true],
  ['proxy.liveProxy', 'bool', true],
  ['rtmp.customPublishHost', 'string', ''],
  ['rtmp.tsDisguisedAsPng', 'bool', false],
  ['email.whitelistEnabled', 'bool', false],
  ['email.whitelistDomains', 'string', ''],
  ['webrtc.externalIceServers', 'json', [{ urls: ['stun:stun.l.google.com:19302'] }, { urls: ['stun:stun1.l.google.com:19302'] }]],
  ['sfu.maxSharesPerRoom', 'i64', 1],
  ['sfu.shareMaxKbps', 'i64', 4000],
  ['sfu.cameraMaxKbps', 'i64', 1200],
  ['sfu.memberMaxKbps', 'i64', 6000],
  ['sfu.roomMaxKbps', 'i64', 40000],
  ['sfu.maxParticipantsPerRoom', 'i64', 100],
  ['chat.maxMessagesPerRoom', 'u64', 500],
  ['chat.maxPinnedMessagesPerRoom', 'u64', 20],
  ['chat.messageRetentionDays', 'i64', 90],
  ['cors.allowedOrigins', 'json', []],
];

test('the registry holds exactly the 29 keys of spec 2.1 and the 6 of the SFU (issue 42), in order', (t) => {
  t.is(SPEC.length, 35);
  t.deepEqual(
    settingDefinitions.map((d) => d.key),
    SPEC.map(([key]) => key),
  );
});

test('each key has the spec type and default, and splits into group and name', (t) => {
  for (const [key, type, expected] of SPEC) {
    const d = definition(key);
    t.is(d.type, type, key);
    t.deepEqual(d.default, expected, key);
    t.is(`${d.group}.${d.name}`, key);
    t.false(d.group.includes('.'), key);
    t.true(d.description.length > 0 && !d.description.includes('\n'), `${key} needs a one-line description`);
    t.true(d.rule.length > 0, `${key} needs a rule`);
  }
});

test('every default passes its own validation unchanged', (t) => {
  for (const d of settingDefinitions) {
    const value = expectAccepted(t, d.validate(d.default), `default of ${d.key}`);
    t.deepEqual(value, d.default, d.key);
  }
});

test('defaultValue returns a copy that callers may change without affecting the default', (t) => {
  const ice = defaultValue('webrtc.externalIceServers');
  ice[0]?.urls.push('stun:evil.example.com');
  ice.pop();
  const admin = defaultValue('permissions.adminDefaultPermissions');
  admin.length = 0;
  t.is(defaultValue('webrtc.externalIceServers').length, 2);
  t.deepEqual(defaultValue('webrtc.externalIceServers')[0], { urls: ['stun:stun.l.google.com:19302'] });
  t.deepEqual(defaultValue('permissions.adminDefaultPermissions'), [...PERMISSIONS]);
  t.is(defaultValue('server.maxRoomsPerUser'), 10);
});

test('definition defaults cannot be mutated in place', (t) => {
  const origins = definition('cors.allowedOrigins').default as string[];
  t.throws(() => origins.push('https://evil.example.com'), { instanceOf: TypeError });
  const ice = definition('webrtc.externalIceServers').default as Array<{ urls: string[] }>;
  t.throws(() => ice[0]?.urls.push('stun:evil.example.com'), { instanceOf: TypeError });
  t.deepEqual(defaultValue('cors.allowedOrigins'), []);
});

test('lookups: findDefinition, isSettingKey, definitionOf', (t) => {
  t.is(findDefinition('server.maxRoomsPerUser')?.key, 'server.maxRoomsPerUser');
  t.is(definitionOf('chat.messageRetentionDays').default, 90);
  t.true(isSettingKey('cors.allowedOrigins'));
  // Startup-only options and near misses are not runtime settings.
  for (const key of ['server.cors_allowed_origins', 'proxy_slice_cache.enabled', 'server', 'Server.allowRoomCreation', '__proto__', 'toString']) {
    t.is(findDefinition(key), undefined, key);
    t.false(isSettingKey(key), key);
  }
});

test('groups come in spec order and hold their keys in spec order', (t) => {
  t.deepEqual(settingGroups(), ['server', 'permissions', 'room', 'user', 'oauth2', 'proxy', 'rtmp', 'email', 'webrtc', 'sfu', 'chat', 'cors']);
  t.deepEqual(
    definitionsOfGroup('chat').map((d) => d.name),
    ['maxMessagesPerRoom', 'maxPinnedMessagesPerRoom', 'messageRetentionDays'],
  );
  t.is(definitionsOfGroup('user').length, 7);
  t.deepEqual(definitionsOfGroup('nope'), []);
  const total = settingGroups().reduce((sum, group) => sum + definitionsOfGroup(group).length, 0);
  t.is(total, settingDefinitions.length);
});

// One row per key: values it must accept and values it must reject, with a fragment of the
// message that names the rule. A key added to the registry without a row fails below.
interface Row {
  accept: unknown[];
  reject: Array<[value: unknown, fragment: string]>;
}

const BOOL: Row = {
  accept: [true, false],
  reject: [
    ['true', 'must be true or false'],
    [1, 'must be true or false'],
    [null, 'must be true or false'],
  ],
};

const GITHUB = { clientId: 'id', clientSecret: 'secret', redirectUrl: 'https://svc.example.com/oauth2/callback/gh' };

const CASES: Record<SettingKey, Row> = {
  'server.allowRoomCreation': BOOL,
  'server.maxRoomsPerUser': { accept: [1, 10, 1000], reject: [[0, 'must be an integer in 1..=1000'], [10.5, 'got 10.5']] },
  'server.maxMembersPerRoom': { accept: [1, 10000], reject: [[10001, 'must be an integer in 1..=10000'], ['100', 'got string "100"']] },
  'server.maxChatMessages': { accept: [0, 10000], reject: [[-1, 'must be an integer in 0..=10000 (0 means unlimited)'], [10001, '0..=10000']] },
  'permissions.adminDefaultPermissions': {
    accept: [[], [...PERMISSIONS], ['edit_room_settings']],
    reject: [[['superuser'], '"superuser" is not a permission name'], ['send_chat', 'must be a JSON array of permission names']],
  },
  'permissions.memberDefaultPermissions': {
    accept: [[], ['send_chat', 'delete_chat']],
    reject: [[['send_chat', 'send_chat'], 'element 1: "send_chat" is listed more than once'], [[7], 'element 0: must be a permission name']],
  },
  'permissions.guestDefaultPermissions': {
    accept: [[], ['view_member_list', 'view_chat_history', 'use_webrtc']],
    reject: [[['view_media_resources'], 'above the guest ceiling'], [['nope'], 'is not a permission name']],
  },
  'room.disableCreateRoom': BOOL,
  'room.createRoomNeedReview': BOOL,
  'room.passwordPolicy': {
    accept: ['optional', 'required', 'forbidden'],
    reject: [['Required', 'must be one of optional, required, forbidden'], ['', 'must be one of'], [1, 'must be one of']],
  },
  'user.enablePasswordSignup': BOOL,
  'user.passwordSignupNeedReview': BOOL,
  'user.enableEmailSignup': BOOL,
  'user.emailSignupNeedReview': BOOL,
  'user.enableWebauthnSignup': BOOL,
  'user.webauthnSignupNeedReview': BOOL,
  'user.enableGuest': BOOL,
  'oauth2.providers': {
    accept: [[], [{ instanceName: 'gh', github: GITHUB }]],
    reject: [[{ instanceName: 'gh', github: GITHUB }, 'must be a JSON array of provider objects'], [[{ instanceName: 'gh' }], 'exactly one provider variant']],
  },
  'proxy.movieProxy': BOOL,
  'proxy.liveProxy': BOOL,
  'rtmp.customPublishHost': {
    accept: ['', 'live.example.com', 'live.example.com:1935', '203.0.113.7:1935', '[2001:db8::1]:1935', 'localhost'],
    reject: [['rtmp://live.example.com', 'without a scheme'], ['live.example.com/app', 'without a path'], [5, 'must be a string']],
  },
  'rtmp.tsDisguisedAsPng': BOOL,
  'email.whitelistEnabled': BOOL,
  'email.whitelistDomains': {
    accept: ['', 'example.com', 'example.com, alice@example.org ,corp.example.net'],
    reject: [['example', 'must contain at least one dot'], [['example.com'], 'must be a string of comma-separated']],
  },
  'webrtc.externalIceServers': {
    accept: [[], [{ urls: ['stun:stun.example.com'] }], [{ urls: ['turns:turn.example.com:5349'], username: 'u', credential: 'c' }]],
    reject: [[[{ urls: [] }], 'urls must be a non-empty array'], [[{ urls: ['turn:turn.example.com'] }], 'need both a non-empty username and credential']],
  },
  'sfu.maxSharesPerRoom': { accept: [1, 16], reject: [[0, 'must be an integer in 1..=16'], [17, '1..=16']] },
  'sfu.shareMaxKbps': { accept: [100, 50000], reject: [[99, 'must be an integer in 100..=50000']] },
  'sfu.cameraMaxKbps': { accept: [50, 20000], reject: [[49, 'must be an integer in 50..=20000']] },
  'sfu.memberMaxKbps': { accept: [100, 100000], reject: [[99, 'must be an integer in 100..=100000']] },
  'sfu.roomMaxKbps': { accept: [1000, 10000000], reject: [[999, 'must be an integer in 1000..=10000000']] },
  'sfu.maxParticipantsPerRoom': { accept: [2, 10000], reject: [[1, 'must be an integer in 2..=10000']] },
  'chat.maxMessagesPerRoom': { accept: [0, 100000], reject: [[100001, 'must be an integer in 0..=100000 (0 means unlimited)'], [true, 'got true']] },
  'chat.maxPinnedMessagesPerRoom': { accept: [0, 20, 1000], reject: [[1001, 'must be an integer in 0..=1000'], [-1, 'got -1']] },
  'chat.messageRetentionDays': { accept: [1, 3650], reject: [[0, 'must be an integer in 1..=3650'], [3651, '1..=3650']] },
  'cors.allowedOrigins': {
    accept: [[], ['https://watch.example.com', 'http://localhost:5173']],
    reject: [[['https://watch.example.com/'], 'has a path'], ['https://watch.example.com', 'must be a JSON array of distinct bare origins']],
  },
};

test('every registry key has a row of accepted and rejected values', (t) => {
  const rows = CASES as Record<string, Row | undefined>;
  for (const d of settingDefinitions) {
    const row = rows[d.key];
    t.truthy(row, `${d.key} has no test row`);
    t.true((row?.accept.length ?? 0) > 0 && (row?.reject.length ?? 0) > 0, `${d.key} needs accepted and rejected values`);
  }
  t.deepEqual(Object.keys(CASES).sort(), settingDefinitions.map((d) => d.key).sort());
});

for (const d of settingDefinitions) {
  test(`${d.key}: accepted and rejected values`, (t) => {
    const row = (CASES as Record<string, Row | undefined>)[d.key];
    if (row === undefined) return t.fail('no row');
    for (const value of row.accept) accepts(t, d.key, value);
    for (const [value, fragment] of row.reject) rejects(t, d.key, value, fragment);
  });
}

// Inclusive bounds of every integer setting, from spec 2.1 and section 8.
const RANGES: Record<string, readonly [min: number, max: number]> = {
  'server.maxRoomsPerUser': [1, 1000],
  'server.maxMembersPerRoom': [1, 10000],
  'server.maxChatMessages': [0, 10000],
  'sfu.maxSharesPerRoom': [1, 16],
  'sfu.shareMaxKbps': [100, 50000],
  'sfu.cameraMaxKbps': [50, 20000],
  'sfu.memberMaxKbps': [100, 100000],
  'sfu.roomMaxKbps': [1000, 10000000],
  'sfu.maxParticipantsPerRoom': [2, 10000],
  'chat.maxMessagesPerRoom': [0, 100000],
  'chat.maxPinnedMessagesPerRoom': [0, 1000],
  'chat.messageRetentionDays': [1, 3650],
};

test('every integer setting has a boundary row', (t) => {
  const integers = settingDefinitions.filter((d) => d.type === 'i64' || d.type === 'u64').map((d) => d.key);
  t.deepEqual(integers.sort(), Object.keys(RANGES).sort());
});

for (const [key, [min, max]] of Object.entries(RANGES)) {
  test(`${key}: boundaries ${min}..=${max}`, (t) => {
    const d = definition(key);
    const rule = `must be an integer in ${min}..=${max}`;
    t.true(d.rule.startsWith(`${min}..=${max}`), d.rule);
    t.is(accepts(t, key, min), min);
    t.is(accepts(t, key, max), max);
    rejects(t, key, min - 1, rule);
    rejects(t, key, max + 1, rule);
    rejects(t, key, min + 0.5, rule);
    rejects(t, key, String(min), rule);
    rejects(t, key, Number.MAX_SAFE_INTEGER + 1, rule);
    rejects(t, key, Number.NaN, rule);
    // The CLI form obeys the same bounds.
    t.is(expectAccepted(t, d.parse(String(max)), `parse ${max}`), max);
    expectRejected(t, key, d.parse(String(max + 1)), rule, `parse ${max + 1}`);
    expectRejected(t, key, d.parse(String(min - 1)), rule, `parse ${min - 1}`);
  });
}

test('a negative zero is stored as 0', (t) => {
  t.true(Object.is(accepts(t, 'server.maxChatMessages', -0), 0));
});
