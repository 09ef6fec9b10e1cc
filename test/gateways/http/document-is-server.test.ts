/**
 * Where the server used to answer other than its API document said (found by schemathesis):
 * the methods it advertised in `Allow`, a required body left out, an empty header, a username
 * the schema allowed and the server refused. Each is checked here against the document.
 */
import test from 'ava';
import * as opaque from '@serenity-kit/opaque';
import { buildOpenApiDocument } from '../../../gateways/http/openapi.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { uniqueIp } from '../../fixtures/client-address.js';
import { DocumentSchemas } from './document-schemas.js';
import { localFileUrl } from '../../../contracts/room/local-file.js';
import { LIBRARY_KINDS } from '../../../contracts/http/libraries.js';

let bed: GatewayBed;
let user: Member;
let admin: Member;
test.before(async () => {
  bed = await startGatewayBed('document_is_server');
  user = await bed.signUp('doc');
  admin = await bed.admin('docadmin');
});
test.after.always(async () => {
  await bed?.close();
});

const document = JSON.parse(JSON.stringify(buildOpenApiDocument())) as { paths: Record<string, Record<string, unknown>> };

async function raw(method: string, path: string, token: string, init: { body?: string; headers?: Record<string, string> } = {}): Promise<Response> {
  return fetch(`${bed.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'x-forwarded-for': uniqueIp(), ...(init.headers ?? {}) },
    ...(init.body === undefined ? {} : { body: init.body }),
  });
}

test('Allow lists the methods of the one documented path a request belongs to, and other methods are 405', async (t) => {
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Allow' }, user.token);
  const cases: Array<[template: string, path: string]> = [
    // A fixed segment wins over a template: read-all is not a notification id.
    ['/api/me/notifications/read-all', '/api/me/notifications/read-all'],
    ['/api/me/passkeys/options', '/api/me/passkeys/options'],
    ['/api/rooms/{roomId}/chat/pins', `/api/rooms/${room.body.room.id}/chat/pins`],
    ['/api/rooms/{roomId}/playlist/current', `/api/rooms/${room.body.room.id}/playlist/current`],
    ['/api/admin/settings/{key}', '/api/admin/settings/chat.maxPinnedMessagesPerRoom'],
    ['/api/admin/setting-groups/chat', '/api/admin/setting-groups/chat'],
  ];
  for (const [template, path] of cases) {
    const documented = Object.keys(document.paths[template] ?? {}).map((method) => method.toUpperCase());
    t.true(documented.length > 0, template);
    const options = await raw('OPTIONS', path, admin.token);
    const allowed = (options.headers.get('allow') ?? '').split(/,\s*/).filter((method) => method !== 'HEAD');
    t.deepEqual(allowed.sort(), [...documented].sort(), `Allow of ${template}`);
    const other = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].find((method) => !documented.includes(method)) ?? 'PUT';
    const refused = await raw(other, path, admin.token, other === 'GET' ? {} : { headers: { 'content-type': 'application/json' }, body: '{}' });
    t.is(refused.status, 405, `${other} ${template}`);
  }
});

test('a required body left out is refused by name; an optional one may be', async (t) => {
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Bodies' }, user.token);
  for (const path of [`/api/rooms/${room.body.room.id}`, '/api/me/notification-preferences']) {
    const answer = await raw('PATCH', path, user.token);
    t.is(answer.status, 400, path);
    const body = (await answer.json()) as { code: string; issues: Array<{ key: string }> };
    t.is(body.code, 'invalid_argument');
    t.deepEqual(body.issues.map((issue) => issue.key), ['body']);
  }
  const admins = await raw('PATCH', '/api/admin/setting-groups/chat', admin.token);
  t.is(admins.status, 400);
  // Joining takes an optional body: leaving it out is fine.
  t.is((await raw('POST', `/api/rooms/${room.body.room.id}/join`, user.token)).status, 200);
});

test('an empty Idempotency-Key is a value the schema refuses, not an absent header', async (t) => {
  const answer = await raw('POST', '/api/rooms', user.token, { headers: { 'content-type': 'application/json', 'idempotency-key': '' }, body: JSON.stringify({ name: 'Empty key' }) });
  t.is(answer.status, 400);
  const body = (await answer.json()) as { issues: Array<{ key: string }> };
  t.true(body.issues.some((issue) => issue.key.includes('idempotency-key')), JSON.stringify(body.issues));
});

test('usernames are refused at the schema exactly when the account rule refuses them', async (t) => {
  for (const username of ['ab', 'a'.repeat(33), '_abc', 'ab cd', 'a\u0000bc']) {
    const answer = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/auth/password/register', { username, password: 'correct horse battery staple' });
    t.is(answer.status, 400, username);
    t.deepEqual(answer.body.issues.map((issue) => issue.key), ['username'], username);
  }
  // Any script, and the white space around a name that the server trims.
  for (const username of [`名前${Date.now() % 10000}`, ` spaced${Date.now() % 10000} `]) {
    const answer = await bed.call('POST', '/api/auth/password/register', { username, password: 'correct horse battery staple' });
    t.is(answer.status, 201, `${username}: ${JSON.stringify(answer.body)}`);
  }
});

const schemas = new DocumentSchemas();

/** One real message of each OPAQUE kind, as @serenity-kit/opaque makes them. */
async function opaqueMessages(): Promise<Record<'registrationRequest' | 'registrationRecord' | 'startLoginRequest' | 'finishLoginRequest', string>> {
  await opaque.ready;
  const serverSetup = opaque.server.createSetup();
  const registration = opaque.client.startRegistration({ password: 'correct horse battery staple' });
  const response = opaque.server.createRegistrationResponse({ serverSetup, userIdentifier: 'ann', registrationRequest: registration.registrationRequest });
  const { registrationRecord } = opaque.client.finishRegistration({ clientRegistrationState: registration.clientRegistrationState, registrationResponse: response.registrationResponse, password: 'correct horse battery staple' });
  const login = opaque.client.startLogin({ password: 'correct horse battery staple' });
  const started = opaque.server.startLogin({ serverSetup, userIdentifier: 'ann', registrationRecord, startLoginRequest: login.startLoginRequest });
  const finished = opaque.client.finishLogin({ clientLoginState: login.clientLoginState, loginResponse: started.loginResponse, password: 'correct horse battery staple' });
  return { registrationRequest: registration.registrationRequest, registrationRecord, startLoginRequest: login.startLoginRequest, finishLoginRequest: finished!.finishLoginRequest };
}

/** Values of a message's shape that are not one: a character short or over, padding, standard base64, stray bits in the last character. */
function malformed(message: string): string[] {
  const last = message.at(-1)!;
  const strayBits = message.length % 4 === 0 ? [] : [`${message.slice(0, -1)}${last === 'B' ? 'C' : 'B'}`];
  return [message.slice(0, -1), `${message}A`, `${message}=`, `+${message.slice(1)}`, `/${message.slice(1)}`, ...strayBits, ''];
}

test('OPAQUE messages: the document states their base64url format and length, and the server refuses what it refuses', async (t) => {
  const messages = await opaqueMessages();
  const uses: Array<[operationId: string, field: keyof typeof messages, body: Record<string, unknown>]> = [
    ['opaqueRegisterStart', 'registrationRequest', { username: 'ann_opaque' }],
    ['opaqueRegisterFinish', 'registrationRecord', { username: 'ann_opaque' }],
    ['opaqueLoginStart', 'startLoginRequest', { username: 'ann_opaque' }],
    ['opaqueLoginFinish', 'finishLoginRequest', { loginId: 'a-login-id' }],
    ['emailSignupOpaque', 'registrationRequest', { email: 'ann@example.com', code: '123456' }],
    ['emailSignupConfirm', 'registrationRecord', { email: 'ann@example.com', code: '123456' }],
    ['passwordResetOpaque', 'registrationRequest', { email: 'ann@example.com', code: '123456' }],
    ['passwordResetFinish', 'registrationRecord', { email: 'ann@example.com', code: '123456' }],
    ['changePasswordOpaque', 'registrationRequest', {}],
    ['changePassword', 'registrationRecord', {}],
  ];
  for (const [operationId, field, body] of uses) {
    t.true(schemas.admitsBody(operationId, { ...body, [field]: messages[field] }), `${operationId} admits a real ${field}`);
    for (const value of malformed(messages[field])) {
      t.false(schemas.admitsBody(operationId, { ...body, [field]: value }), `${operationId} refuses ${field} ${JSON.stringify(value)}`);
    }
  }
  // The server refuses those by the field's name, before any protocol work.
  for (const [path, field, body] of [
    ['/api/auth/opaque/register/start', 'registrationRequest', { username: 'ann_opaque' }],
    ['/api/auth/opaque/login/start', 'startLoginRequest', { username: 'ann_opaque' }],
  ] as const) {
    for (const value of malformed(messages[field])) {
      const answer = await bed.call<{ issues: Array<{ key: string }> }>('POST', path, { ...body, [field]: value });
      t.is(answer.status, 400, `${path} ${JSON.stringify(value)}`);
      t.deepEqual(answer.body.issues.map((issue) => issue.key), [field], `${path} ${JSON.stringify(value)}`);
    }
  }
});

test('a list cursor the document admits is a position in the listing, never refused', async (t) => {
  // Enough rooms and users for a second page at limit 1.
  await bed.call('POST', '/api/rooms', { name: 'Cursor one', visibility: 'public' }, user.token);
  await bed.call('POST', '/api/rooms', { name: 'Cursor two', visibility: 'public' }, user.token);
  const lists: Array<[operationId: string, path: string, token: string]> = [
    ['listRooms', '/api/rooms', user.token],
    ['listMyRooms', '/api/me/rooms', user.token],
    ['adminListRooms', '/api/admin/rooms', admin.token],
    ['adminListUsers', '/api/admin/users', admin.token],
  ];
  for (const [operationId, path, token] of lists) {
    // The cursor the server hands out is one the document admits, and it pages on.
    const first = await bed.call<{ nextCursor?: string }>('GET', `${path}?limit=1`, undefined, token);
    t.is(first.status, 200, operationId);
    const handedOut = first.body.nextCursor;
    t.truthy(handedOut, `${operationId} has a second page`);
    t.true(schemas.admitsParameter(operationId, 'query', 'cursor', handedOut), `${operationId} admits its own cursor ${handedOut}`);
    t.is((await bed.call('GET', `${path}?limit=1&cursor=${encodeURIComponent(handedOut!)}`, undefined, token)).status, 200, operationId);
    // Made-up values: each one the document admits is answered with a page.
    const madeUp = ['A', 'AA', 'AAAA', '_-_-', '0', '0.0', '9999999999999999.zz', `1.${'a'.repeat(128)}`, 'x'.repeat(256), 'not a cursor!', '1.a.b', '-1.a'];
    let admitted = 0;
    for (const cursor of madeUp) {
      if (!schemas.admitsParameter(operationId, 'query', 'cursor', cursor)) continue;
      admitted += 1;
      const answer = await bed.call('GET', `${path}?limit=1&cursor=${encodeURIComponent(cursor)}`, undefined, token);
      t.is(answer.status, 200, `${operationId} cursor ${cursor}: ${JSON.stringify(answer.body)}`);
    }
    t.true(admitted >= 2, `${operationId} admits some made-up cursors`);
    // What the document refuses, the server refuses by name.
    const refused = await bed.call<{ issues: Array<{ key: string }> }>('GET', `${path}?cursor=${encodeURIComponent('not a cursor!')}`, undefined, token);
    t.is(refused.status, 400, operationId);
    t.deepEqual(refused.body.issues.map((issue) => issue.key), ['cursor'], operationId);
  }
});

test('a username the document admits is one the server registers; one it refuses, the server refuses by name', async (t) => {
  const stem = `${Date.now() % 100000}`;
  const names = [
    `n${stem}\ufdfa`, // a letter whose compatibility form holds spaces
    `\u2474${stem}`, // a number whose compatibility form holds parentheses
    `n${stem}\u00bd`, // ½
    `e\u0301${stem}`, // a combining acute after e
    `\u202fn${stem}\u202f`, // narrow no-break spaces around: trimmed
    `\uff4e\uff41${stem}`, // full-width letters
    `n${stem}\u0915\u094d\u0937`, // Devanagari with a virama
  ];
  for (const username of names) {
    const admits = schemas.admitsBody('passwordRegister', { username, password: 'correct horse battery staple' });
    const answer = await bed.call<{ issues?: Array<{ key: string }> }>('POST', '/api/auth/password/register', { username, password: 'correct horse battery staple' });
    if (admits) t.is(answer.status, 201, `${JSON.stringify(username)}: ${JSON.stringify(answer.body)}`);
    else t.deepEqual([answer.status, answer.body.issues?.map((issue) => issue.key)], [400, ['username']], JSON.stringify(username));
  }
});

/** JSON with every non-ASCII character escaped (\uXXXX, a surrogate pair for one above the BMP): the largest body a text takes. */
function escapedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

test('a chat text the document admits is posted and edited, however it is escaped; one it refuses is refused', async (t) => {
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Chat bounds' }, user.token);
  const path = `/api/rooms/${room.body.room.id}/chat`;
  const texts = [
    '😀'.repeat(2000), // 2000 characters: the most after trimming
    `${' \n'.repeat(500)}${'😀'.repeat(2000)}${'\r\n '.repeat(300)}`, // and white space around it, trimmed
    `a${'\r\n'.repeat(1998)}b`, // CR LF counts as one character
    'x'.repeat(2001),
    '😀'.repeat(8000),
    '   ',
    `a${'\r'.repeat(3)}b`,
  ];
  let posted: string | undefined;
  for (const text of texts) {
    const admits = schemas.admitsBody('sendChat', { text });
    const answer = await raw('POST', path, user.token, { headers: { 'content-type': 'application/json' }, body: escapedJson({ text }) });
    const body = (await answer.json()) as { message?: { id: string }; code?: string };
    const what = `${JSON.stringify(text.slice(0, 12))}… (${[...text].length} characters): ${answer.status} ${body.code ?? ''}`;
    // Refused by the schema, or for a body beyond the limit before it is read.
    if (admits) t.is(answer.status, 201, what);
    else t.true(answer.status === 400 || answer.status === 413, what);
    posted ??= body.message?.id;
    if (posted && admits) {
      const edited = await raw('PATCH', `${path}/${posted}`, user.token, { headers: { 'content-type': 'application/json' }, body: escapedJson({ text }) });
      t.is(edited.status, 200, `edit: ${what}`);
    }
  }
  t.true(schemas.admitsBody('sendChat', { text: texts[1] }), 'white space around the text is admitted');
  t.false(schemas.admitsBody('sendChat', { text: texts[3] }), 'over 2000 characters after trimming is refused');
});

test('a playlist item the document admits is added; by provider, the url it takes and the fields the room checks', async (t) => {
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Item kinds' }, user.token);
  const path = `/api/rooms/${room.body.room.id}/playlist`;
  const file = 'https://media.example.com/a.mp4';
  const local = localFileUrl({ fingerprint: 'a'.repeat(64), size: 1234, name: 'My film é 字幕.mp4' });
  const items: Array<Record<string, unknown>> = [
    { title: 'A file', url: file },
    { title: 'HLS', provider: 'hls', url: ' HTTP://Media.Example.COM:8080/live/index.m3u8?token=a b ' },
    { title: 'IPv6', url: 'http://[2001:db8::1]:8080/a.mp4' },
    { title: 'IPv4', provider: 'dash', url: 'http://192.168.1.20/a.mpd' },
    { title: 'Live', provider: 'live' },
    { title: 'YouTube', provider: 'youtube', url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=90' },
    { title: 'Short', provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ' },
    { title: 'Alist', provider: 'alist', url: 'https://alist.example.com/d/movies/film.mp4' },
    { title: 'Local', provider: 'local', url: local },
    { title: 'Subtitled', url: file, subtitles: [{ name: 'English', url: 'https://media.example.com/a.vtt', language: 'en', default: true }, { name: 'Embedded', stream: 2 }] },
    { title: 'With a header', url: file, headers: { Referer: 'https://media.example.com/', 'X-Token': 'a\tb' } },
    // What the room refuses:
    { title: 'No url' },
    { title: '   ', url: file },
    { title: '\u200b', url: file },
    { title: 'Line\u2028break', url: file },
    { title: 'FTP', url: 'ftp://media.example.com/a.mp4' },
    { title: 'A number last', url: 'https://media.example.1/a.mp4' },
    { title: 'No host', url: 'https:///a.mp4' },
    { title: 'A port too far', url: 'https://media.example.com:65536/a.mp4' },
    { title: 'Not YouTube', provider: 'youtube', url: file },
    { title: 'YouTube with a header', provider: 'youtube', url: 'https://youtu.be/dQw4w9WgXcQ', headers: { Referer: 'x' } },
    { title: 'Alist root', provider: 'alist', url: 'https://alist.example.com/d/' },
    { title: 'Bad local', provider: 'local', url: 'local:abc:1:x' },
    { title: 'Blank local name', provider: 'local', url: localFileUrl({ fingerprint: 'a'.repeat(64), size: 1, name: ' ' }) },
    { title: 'Unknown', provider: 'nosuchprovider', url: file },
    { title: 'Two sources', url: file, subtitles: [{ name: 'x', url: 'https://media.example.com/a.vtt', stream: 1 }] },
    { title: 'Two defaults', url: file, subtitles: [{ name: 'x', stream: 1, default: true }, { name: 'y', stream: 2, default: true }] },
    { title: 'A reserved header', url: file, headers: { Host: 'media.example.com' } },
    { title: 'Too many headers', url: file, headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`x-h${i}`, 'v'])) },
  ];
  let admitted = 0;
  for (const item of items) {
    const admits = schemas.admitsBody('addPlaylistItem', item);
    admitted += admits ? 1 : 0;
    const answer = await bed.call<{ code?: string; issues?: unknown }>('POST', path, item, user.token);
    t.is(answer.status, admits ? 201 : 400, `${String(item.title)}: the document ${admits ? 'admits' : 'refuses'} it; ${JSON.stringify(answer.body)}`);
    t.is(schemas.admitsBody('addPlaylistItems', { items: [item] }), admits, `${String(item.title)} in a bulk add`);
  }
  t.is(admitted, 11);
  // A library item's URL has the form the document states, and a signature it cannot: one the
  // server did not make is refused naming url (the schema-valid refusal fuzz:api exempts, as a proof).
  const forged = { title: 'Library', provider: 'library', url: 'library:abc/def?sig=x' };
  t.true(schemas.admitsBody('addPlaylistItem', forged));
  const refused = await bed.call<{ issues: Array<{ key: string }> }>('POST', path, forged, user.token);
  t.deepEqual([refused.status, refused.body.issues.map((issue) => issue.key)], [400, ['url']]);
  // The bulk add's conditional url: a live item needs none, another does.
  t.is((await bed.call('POST', `${path}/bulk`, { items: [{ title: 'Live too', provider: 'live' }] }, user.token)).status, 201);
  t.is((await bed.call('POST', `${path}/bulk`, { items: [{ title: 'No url' }] }, user.token)).status, 400);
});

test('a label the document admits (room name, folder title, poll question and options) is one the room accepts', async (t) => {
  const labels = ['Movie night', ' padded\u3000', '\u202fnarrow\u202f', 'e\u0301', '\u0301', ' ', '\u200b\u200b', 'a\u2028b', 'a\u202eb', '\u3164', '', 'x'.repeat(64), 'x'.repeat(65)];
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Labels' }, user.token);
  const base = `/api/rooms/${room.body.room.id}`;
  for (const label of labels) {
    const what = JSON.stringify(label);
    const roomAdmitted = schemas.admitsBody('createRoom', { name: label });
    const created = await bed.call('POST', '/api/rooms', { name: label }, admin.token);
    t.is(created.status, roomAdmitted ? 201 : 400, `room name ${what}`);
    const folderAdmitted = schemas.admitsBody('addPlaylistFolder', { title: label });
    const folder = await bed.call('POST', `${base}/playlist/folders`, { title: label }, user.token);
    t.is(folder.status, folderAdmitted ? 201 : 400, `folder title ${what}`);
    const pollAdmitted = schemas.admitsBody('openPoll', { question: label, options: [label, 'other'] });
    const poll = await bed.call<{ poll?: { id: string } }>('POST', `${base}/polls`, { question: label, options: [label, 'other'] }, user.token);
    t.is(poll.status, pollAdmitted ? 201 : 400, `poll ${what}`);
    if (poll.body.poll) await bed.call('POST', `${base}/polls/${poll.body.poll.id}/close`, undefined, user.token);
  }
});

test('library kinds: the document lists exactly the kinds the server connects, and a name it admits is not refused', async (t) => {
  const listed = await bed.call<{ kinds: Array<{ kind: string }> }>('GET', '/api/libraries', undefined, user.token);
  const kinds = listed.body.kinds.map((kind) => kind.kind);
  t.deepEqual([...kinds].sort(), [...LIBRARY_KINDS].sort());
  const body = (kind: string, name = 'Films') => ({ kind, name, url: 'https://files.example.com/dav/' });
  for (const kind of kinds) t.true(schemas.admitsBody('connectMyLibrary', body(kind)), kind);
  for (const kind of ['0', 'WebDAV', 'ftp', '']) {
    t.false(schemas.admitsBody('connectMyLibrary', body(kind)), kind);
    const answer = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/libraries', body(kind), user.token);
    t.deepEqual([answer.status, answer.body.issues.map((issue) => issue.key)], [400, ['kind']], kind);
  }
  for (const name of ['   ', '', 'x'.repeat(81)]) {
    t.false(schemas.admitsBody('connectMyLibrary', body('webdav', name)), JSON.stringify(name));
    const answer = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/libraries', body('webdav', name), user.token);
    t.deepEqual([answer.status, answer.body.issues.map((issue) => issue.key)], [400, ['name']], JSON.stringify(name));
  }
  t.true(schemas.admitsBody('connectMyLibrary', body('webdav', ' Films ')));
});

test('WebAuthn clientExtensionResults: what the document admits goes on to verification; what it refuses is refused by name', async (t) => {
  const assertion = (clientExtensionResults: unknown) => ({
    challengeId: 'no-such-challenge',
    response: {
      id: 'AAAA',
      rawId: 'AAAA',
      type: 'public-key',
      response: { clientDataJSON: 'AAAA', authenticatorData: 'AAAA', signature: 'AAAA' },
      clientExtensionResults,
    },
  });
  const outputs: unknown[] = [
    {},
    { credProps: { rk: true } },
    { prf: { enabled: true, results: { first: 'AAAA', second: 'BBBB' } } },
    { largeBlob: { supported: true }, appid: false, 'some-future-extension': [1, 'two', null, { three: 3 }] },
    { bad: 'a\u0000b' },
    { 'a\u0000b': true },
    { deep: { a: { b: { c: { d: 1 } } } } },
  ];
  for (const output of outputs) {
    const body = assertion(output);
    const admits = schemas.admitsBody('webauthnLoginVerify', body);
    const answer = await raw('POST', '/api/auth/webauthn/login/verify', '', { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const answered = (await answer.json()) as { code: string; issues?: Array<{ key: string }> };
    const what = `${JSON.stringify(output)}: ${answer.status} ${JSON.stringify(answered.issues ?? answered.code)}`;
    if (admits) t.not(answer.status, 400, what);
    else t.true(answer.status === 400 && (answered.issues ?? []).every((issue) => issue.key.startsWith('response.clientExtensionResults')), what);
  }
  t.true(schemas.admitsBody('webauthnLoginVerify', assertion({ prf: { results: { first: 'AAAA' } } })));
  t.false(schemas.admitsBody('webauthnLoginVerify', assertion({ bad: 'a\u0000b' })));
});

test("a setting group's write: the document states the keys the group holds and each value's rule", async (t) => {
  const cases: Array<[group: string, operationId: string, body: Record<string, unknown>]> = [
    ['chat', 'adminUpdateChatSettings', { maxPinnedMessagesPerRoom: 25 }],
    ['chat', 'adminUpdateChatSettings', { maxPinnedMessagesPerRoom: 1001 }],
    ['chat', 'adminUpdateChatSettings', { maxRoomsPerUser: 5 }],
    ['chat', 'adminUpdateChatSettings', { '': 1 }],
    ['server', 'adminUpdateServerSettings', { maxRoomsPerUser: 1000 }],
    ['server', 'adminUpdateServerSettings', { maxRoomsPerUser: 'many' }],
    ['rtmp', 'adminUpdateRtmpSettings', { customPublishHost: 'ingest.example.com:1935' }],
    ['rtmp', 'adminUpdateRtmpSettings', { customPublishHost: 'rtmp://ingest.example.com' }],
    ['email', 'adminUpdateEmailSettings', { whitelistDomains: 'example.com, alice@example.org' }],
    ['email', 'adminUpdateEmailSettings', { whitelistDomains: 'example.com,,' }],
    ['permissions', 'adminUpdatePermissionsSettings', { guestDefaultPermissions: ['view_member_list'] }],
    ['permissions', 'adminUpdatePermissionsSettings', { guestDefaultPermissions: ['send_chat'] }],
    ['permissions', 'adminUpdatePermissionsSettings', { memberDefaultPermissions: ['send_chat', 'send_chat'] }],
  ];
  const guests = await bed.call<{ value: string[] }>('GET', '/api/admin/settings/permissions.guestDefaultPermissions', undefined, admin.token);
  for (const [group, operationId, body] of cases) {
    const admits = schemas.admitsBody(operationId, body);
    const answer = await bed.call<{ issues?: Array<{ key: string }> }>('PATCH', `/api/admin/setting-groups/${group}`, body, admin.token);
    t.is(answer.status, admits ? 200 : 400, `${group} ${JSON.stringify(body)}: ${JSON.stringify(answer.body)}`);
    // Refusals name the setting by its key.
    if (!admits) t.true((answer.body.issues ?? []).every((issue) => issue.key.startsWith(`${group}.`)), JSON.stringify(answer.body.issues));
  }
  await bed.call('PATCH', '/api/admin/setting-groups/server', { maxRoomsPerUser: 10 }, admin.token);
  await bed.call('PATCH', '/api/admin/setting-groups/permissions', { guestDefaultPermissions: guests.body.value }, admin.token);
  await bed.call('PATCH', '/api/admin/setting-groups/rtmp', { customPublishHost: '' }, admin.token);
  await bed.call('PATCH', '/api/admin/setting-groups/email', { whitelistDomains: '' }, admin.token);
  t.is((await bed.call('PATCH', '/api/admin/setting-groups/nosuchgroup', { a: 1 }, admin.token)).status, 404);
});

test('a room settings body the document admits fits the body limit, escaped: a full word filter', async (t) => {
  const room = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Many words' }, user.token);
  // 200 entries of 50 characters above the BMP: what the room takes (100 UTF-16 units each), 12 bytes a character escaped.
  const words = Array.from({ length: 200 }, (_, i) => `${String(i).padStart(3, '0')}${'😀'.repeat(47)}`);
  const body = { wordFilter: { mode: 'block', words } };
  t.true(schemas.admitsBody('updateRoom', body));
  const answer = await raw('PATCH', `/api/rooms/${room.body.room.id}`, user.token, { headers: { 'content-type': 'application/json' }, body: escapedJson(body) });
  t.true(escapedJson(body).length > 64 * 1024);
  t.is(answer.status, 200, JSON.stringify(await answer.json()));
});
