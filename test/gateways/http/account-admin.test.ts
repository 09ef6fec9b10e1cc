/**
 * The current user's profile and credentials, the public info and clock, the admin room and
 * runtime-settings endpoints, the error mapping of room-actor failures, and the CORS preflight
 * of spec 4.1, over HTTP against a whole service. Answers are checked against
 * /api/openapi.json by the bed.
 */
import { request } from 'node:http';
import test from 'ava';
import { HTTP_STATUS } from '../../../contracts/errors.js';
import { ALLOWED_ORIGIN, startGatewayBed, type GatewayBed, type Member } from '../bed.js';

let bed: GatewayBed;
let admin: Member;
let user: Member;

test.before(async () => {
  bed = await startGatewayBed('http-account-admin');
  await bed.set('server', { maxRoomsPerUser: 100 });
  admin = await bed.admin();
  user = await bed.signUp('plain');
});
test.after.always(async () => {
  await bed?.close();
});

test('PATCH /api/me changes the display name; rooms show it from the next command', async (t) => {
  const me = await bed.signUp('renamer');
  const changed = await bed.call<{ user: { displayName: string } }>('PATCH', '/api/me', { displayName: '  Ada L.  ' }, me.token);
  t.is(changed.status, 200);
  t.is(changed.body.user.displayName, 'Ada L.');
  t.is((await bed.call<{ user: { displayName: string } }>('GET', '/api/me', undefined, me.token)).body.user.displayName, 'Ada L.');

  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Names' }, me.token);
  const sent = await bed.call<{ message: { name: string } }>('POST', `/api/rooms/${created.body.room.id}/chat`, { text: 'hi' }, me.token);
  t.is(sent.body.message.name, 'Ada L.');

  for (const bad of [{ displayName: '   ' }, { displayName: 'a\u202eb' }, { displayName: 'x'.repeat(65) }, {}, { displayName: 'ok', role: 'admin' }]) {
    const answer = await bed.call<{ code: string; issues: Array<{ key: string }> }>('PATCH', '/api/me', bad, me.token);
    t.is(answer.status, 400, JSON.stringify(bad));
    t.true(['displayName', 'role'].includes(answer.body.issues[0]?.key ?? ''), JSON.stringify(answer.body));
  }
  t.is((await bed.call<{ user: { displayName: string } }>('GET', '/api/me', undefined, me.token)).body.user.displayName, 'Ada L.');
  const guest = await bed.guest();
  t.is((await bed.call('PATCH', '/api/me', { displayName: 'Guesty' }, guest.token)).status, 403);
  t.is((await bed.call('PATCH', '/api/me', { displayName: 'Anon' })).status, 401);
});

test('GET /api/me/credentials says what the account signs in with, never a secret', async (t) => {
  const answer = await bed.call<Record<string, unknown>>('GET', '/api/me/credentials', undefined, user.token);
  t.is(answer.status, 200);
  t.deepEqual(answer.body, { password: 'argon2', passkeys: 0, oauth2: [], twoFactor: { enabled: false, recoveryCodesLeft: 0 }, liveSessions: 1 });
  t.is(answer.headers.get('cache-control'), 'no-store');
  const guest = await bed.guest();
  t.is((await bed.call('GET', '/api/me/credentials', undefined, guest.token)).status, 403);
});

test.serial('GET /api/public/info follows runtime settings at once; /api/public/time is the server clock', async (t) => {
  const info = await bed.call<{
    version: string;
    signIn: { opaque: boolean; webauthn: boolean; oauth2: string[]; email: boolean };
    signup: { password: { enabled: boolean; needsReview: boolean }; email: { enabled: boolean } };
    guests: boolean;
    rooms: { creationAllowed: boolean; passwordPolicy: string };
  }>('GET', '/api/public/info');
  t.is(info.status, 200);
  t.regex(info.body.version, /^\d+\.\d+\.\d+/);
  t.true(info.body.signIn.opaque);
  t.true(info.body.signIn.webauthn);
  t.deepEqual(info.body.signIn.oauth2, []);
  t.true(info.body.signup.password.enabled);
  t.false(info.body.signup.email.enabled, 'email signup needs SMTP, which the bed has not');
  t.true(info.body.guests);
  t.true(info.body.rooms.creationAllowed);
  t.is(info.body.rooms.passwordPolicy, 'optional');

  await bed.set('user', { passwordSignupNeedReview: true, enableGuest: false });
  await bed.set('room', { passwordPolicy: 'required', disableCreateRoom: true });
  await bed.set('oauth2', {
    providers: [{ instanceName: 'corp', enableSignup: true, oidc: { clientId: 'c', clientSecret: 's', issuer: 'https://id.example.com', redirectUrl: 'https://svc.test/cb' } }],
  });
  try {
    const after = await bed.call<{
      signIn: { oauth2: string[] };
      signup: { password: { needsReview: boolean }; oauth2: Array<{ instanceName: string; enabled: boolean; needsReview: boolean }> };
      guests: boolean;
      rooms: { creationAllowed: boolean; passwordPolicy: string };
    }>('GET', '/api/public/info');
    t.true(after.body.signup.password.needsReview);
    t.false(after.body.guests);
    t.false(after.body.rooms.creationAllowed);
    t.is(after.body.rooms.passwordPolicy, 'required');
    t.deepEqual(after.body.signIn.oauth2, ['corp']);
    t.deepEqual(after.body.signup.oauth2, [{ instanceName: 'corp', enabled: true, needsReview: false }]);
    t.false(JSON.stringify(after.body).includes('"s"'), 'no client secret');
  } finally {
    await bed.set('user', { passwordSignupNeedReview: false, enableGuest: true });
    await bed.set('room', { passwordPolicy: 'optional', disableCreateRoom: false });
    await bed.set('oauth2', { providers: [] });
  }

  const before = Date.now();
  const time = await bed.call<{ now: number }>('GET', '/api/public/time');
  t.true(Number.isInteger(time.body.now));
  t.true(time.body.now >= before - 60_000 && time.body.now <= Date.now() + 60_000);
});

test('admin room listing shows every room with paging; get and delete act as the service', async (t) => {
  const owner = await bed.signUp('roomowner');
  const ids: string[] = [];
  for (const [i, visibility] of ['public', 'hidden', 'public'].entries()) {
    const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: `Admin view ${i}`, visibility }, owner.token);
    ids.push(created.body.room.id);
  }
  await bed.call('POST', `/api/rooms/${ids[0]}/chat`, { text: 'hello' }, owner.token);

  const seen: Array<{ id: string; ownerId: string; ownerUsername: string | null; visibility: string }> = [];
  let cursor: string | undefined;
  do {
    const page = await bed.call<{ rooms: typeof seen; nextCursor?: string }>(
      'GET',
      `/api/admin/rooms?owner=${owner.userId}&limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      undefined,
      admin.token,
    );
    t.is(page.status, 200);
    seen.push(...page.body.rooms);
    cursor = page.body.nextCursor;
  } while (cursor);
  t.deepEqual(seen.map((room) => room.id).sort(), [...ids].sort());
  t.true(seen.every((room) => room.ownerUsername === owner.username));
  const hidden = await bed.call<{ rooms: Array<{ id: string }> }>('GET', `/api/admin/rooms?owner=${owner.userId}&visibility=hidden`, undefined, admin.token);
  t.deepEqual(hidden.body.rooms.map((room) => room.id), [ids[1]]);
  const bad = await bed.call<{ issues: Array<{ key: string }> }>('GET', '/api/admin/rooms?status=gone', undefined, admin.token);
  t.is(bad.body.issues[0]?.key, 'status');

  const read = await bed.call<{ access: string; members: Array<{ userId: string }> }>('GET', `/api/admin/rooms/${ids[1]}`, undefined, admin.token);
  t.is(read.status, 200);
  t.is(read.body.access, 'member');
  t.deepEqual(read.body.members.map((member) => member.userId), [owner.userId]);

  for (const [method, path] of [
    ['GET', '/api/admin/rooms'],
    ['GET', `/api/admin/rooms/${ids[0]}`],
    ['DELETE', `/api/admin/rooms/${ids[0]}`],
  ] as const) {
    t.is((await bed.call(method, path, undefined, user.token)).status, 403, `${method} ${path}`);
    t.is((await bed.call(method, path)).status, 401, `${method} ${path}`);
  }
  t.is((await bed.call('DELETE', `/api/admin/rooms/${ids[0]}`, undefined, admin.token)).status, 204);
  t.is((await bed.call('GET', `/api/rooms/${ids[0]}`, undefined, owner.token)).status, 404);
  t.is((await bed.call('DELETE', `/api/admin/rooms/${ids[0]}`, undefined, admin.token)).status, 404);
});

test('banned accounts are listed through the admin users filter', async (t) => {
  const victim = await bed.signUp('victim');
  t.is((await bed.call('POST', `/api/admin/users/${victim.userId}/ban`, {}, admin.token)).status, 200);
  const banned = await bed.call<{ users: Array<{ id: string }> }>('GET', '/api/admin/users?state=banned', undefined, admin.token);
  t.true(banned.body.users.some((entry) => entry.id === victim.userId));
});

test.serial('admin settings: list with metadata, write a group as the admin, history records who; bad values name the key and write nothing', async (t) => {
  const list = await bed.call<{ settings: Array<{ key: string; default: unknown; rule: string; description: string; type: string }> }>('GET', '/api/admin/settings?group=server', undefined, admin.token);
  t.is(list.status, 200);
  const max = list.body.settings.find((setting) => setting.key === 'server.maxRoomsPerUser');
  t.is(max?.default, 10);
  t.is(max?.rule, '1..=1000');
  t.is(max?.type, 'i64');
  t.truthy(max?.description);
  t.true(list.body.settings.every((setting) => setting.key.startsWith('server.')));

  const written = await bed.call<{ changes: Array<{ key: string; oldValue: unknown; newValue: unknown }> }>(
    'PATCH',
    '/api/admin/setting-groups/server',
    { maxMembersPerRoom: 77 },
    admin.token,
  );
  t.is(written.status, 200);
  t.deepEqual(written.body.changes.map((change) => [change.key, change.newValue]), [['server.maxMembersPerRoom', 77]]);
  const one = await bed.call<{ value: unknown; isDefault: boolean; updatedBy: string }>('GET', '/api/admin/settings/server.maxMembersPerRoom', undefined, admin.token);
  t.is(one.body.value, 77);
  t.false(one.body.isDefault);
  t.is(bed.service.settings.get('server.maxMembersPerRoom'), 77);
  const history = await bed.call<{ history: Array<{ changedBy: string; source: string; newValue: unknown }> }>(
    'GET',
    '/api/admin/settings/server.maxMembersPerRoom/history?limit=1',
    undefined,
    admin.token,
  );
  t.deepEqual(
    history.body.history.map((entry) => [entry.changedBy, entry.source, entry.newValue]),
    [[`user:${admin.username}`, 'http', 77]],
  );

  const bad = await bed.call<{ code: string; issues: Array<{ key: string }> }>('PATCH', '/api/admin/setting-groups/server', { maxMembersPerRoom: 5, maxRoomsPerUser: 0, colour: 1 }, admin.token);
  t.is(bad.status, 400);
  t.is(bad.body.code, 'invalid_argument');
  t.deepEqual(bad.body.issues.map((issue) => issue.key).sort(), ['server.colour', 'server.maxRoomsPerUser']);
  t.is(bed.service.settings.get('server.maxMembersPerRoom'), 77, 'nothing written');
  const guestCeiling = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', '/api/admin/setting-groups/permissions', { guestDefaultPermissions: ['send_chat'] }, admin.token);
  t.is(guestCeiling.status, 400);
  t.is(guestCeiling.body.issues[0]?.key, 'permissions.guestDefaultPermissions');

  t.is((await bed.call('PATCH', '/api/admin/setting-groups/nosuchgroup', { a: 1 }, admin.token)).status, 404);
  t.is((await bed.call('GET', '/api/admin/settings/server.nothing', undefined, admin.token)).status, 404);
  t.is((await bed.call('GET', '/api/admin/settings/server.nothing/history', undefined, admin.token)).status, 404);
  t.is((await bed.call('PATCH', '/api/admin/setting-groups/server', { maxMembersPerRoom: 90 }, user.token)).status, 403);
  t.is((await bed.call('GET', '/api/admin/settings', undefined, user.token)).status, 403);
  await bed.call('PATCH', '/api/admin/setting-groups/server', { maxMembersPerRoom: 100 }, admin.token);
});

test.serial('secrets inside settings are redacted in admin listings', async (t) => {
  await bed.set('oauth2', {
    providers: [{ instanceName: 'gh', github: { clientId: 'id', clientSecret: 'very-secret-value', redirectUrl: 'https://svc.test/cb' } }],
  });
  try {
    const one = await bed.call('GET', '/api/admin/settings/oauth2.providers', undefined, admin.token);
    t.is(one.status, 200);
    t.false(JSON.stringify(one.body).includes('very-secret-value'));
    const history = await bed.call('GET', '/api/admin/settings/oauth2.providers/history', undefined, admin.token);
    t.false(JSON.stringify(history.body).includes('very-secret-value'));
  } finally {
    await bed.set('oauth2', { providers: [] });
  }
});

test('room-actor error codes come out with the status of the one table, contracts/errors.ts', async (t) => {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Codes' }, user.token);
  const roomId = created.body.room.id;
  const outsider = await bed.signUp('outsider');
  const cases: Array<[string, Promise<{ status: number; body: { code?: string } }>]> = [
    ['forbidden', bed.call('PATCH', `/api/rooms/${roomId}`, { name: 'x' }, outsider.token)],
    ['not_found', bed.call('GET', '/api/rooms/doesnotexist', undefined, outsider.token)],
    ['invalid_argument', bed.call('POST', `/api/rooms/${roomId}/join`, { password: 1 }, outsider.token)],
    ['conflict', bed.call('POST', `/api/rooms/${roomId}/playback/play`, {}, user.token)],
  ];
  for (const [code, pending] of cases) {
    const answer = await pending;
    t.is(answer.body.code, code);
    t.is(answer.status, HTTP_STATUS[code as keyof typeof HTTP_STATUS], code);
  }
});

test('with no actor host reachable a room command answers 503 unavailable without internals', async (t) => {
  const lonely = await startGatewayBed('http-no-actors', { roles: ['gateway'], databaseUrl: bed.databaseUrl, env: { SVC_NATS_SUBJECT_PREFIX: 'tnoactors' } });
  try {
    const answer = await lonely.call<{ code: string; status: number; message: string; requestId: string }>('GET', '/api/rooms/someroom', undefined, user.token);
    t.true([503, 504].includes(answer.status));
    t.is(answer.status, HTTP_STATUS[answer.body.code as keyof typeof HTTP_STATUS]);
    t.false(/\bat .*\.js:\d+/.test(answer.body.message), 'no stack trace');
    t.truthy(answer.body.requestId);
  } finally {
    await lonely.close();
  }
});

test('the CORS preflight of spec 4.1 echoes an allowed origin and gives others nothing', async (t) => {
  const preflight = (origin: string) =>
    fetch(`${bed.url}/api/auth/opaque/login/start`, { method: 'OPTIONS', headers: { Origin: origin, 'Access-Control-Request-Method': 'POST' } });
  const allowed = await preflight(ALLOWED_ORIGIN);
  t.is(allowed.status, 204);
  t.is(allowed.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
  t.regex(allowed.headers.get('access-control-allow-methods') ?? '', /POST/);
  const other = await preflight('https://evil.example.com');
  t.is(other.headers.get('access-control-allow-origin'), null);
  t.is(other.headers.get('access-control-allow-credentials'), null);
  // Room endpoints answer the same way.
  const rooms = await fetch(`${bed.url}/api/rooms`, { method: 'OPTIONS', headers: { Origin: ALLOWED_ORIGIN, 'Access-Control-Request-Method': 'POST' } });
  t.is(rooms.headers.get('access-control-allow-origin'), ALLOWED_ORIGIN);
});

test('a method no route implements (TRACE) is 405 in the error shape, not a server error', async (t) => {
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(`${bed.url}/api/rooms`, { method: 'TRACE' }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject).end();
  });
  t.is(answer.status, 405);
  t.is((JSON.parse(answer.body) as { code: string }).code, 'not_found');
});
