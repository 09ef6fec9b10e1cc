/**
 * Text that PostgreSQL cannot store or a log should not show (NUL, other control characters,
 * lone surrogates) is refused at the door with invalid_argument naming the field, on HTTP and
 * on gRPC, before anything reaches the database (it used to answer 500 from PostgreSQL).
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { refused, startGrpcBed, uniqueIp, type GrpcBed } from '../gateways/grpc/fixtures.js';

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('safe_text');
});
test.after.always(async () => {
  await g?.close();
});

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const BELL = 'a\u0007b';
// Well-formed OPAQUE messages (the document states their base64url length), so only the field under test is refused.
const OPAQUE_KE1 = 'A'.repeat(128);
const OPAQUE_KE3 = 'A'.repeat(86);

interface Refusal {
  code: string;
  issues?: Array<{ key: string; message: string }>;
}

/** One HTTP request that must be a 400 invalid_argument naming exactly `key`. */
async function refusedOverHttp(t: import('ava').ExecutionContext, method: string, path: string, body: unknown, key: string, token?: string): Promise<void> {
  const answer = await g.bed.call<Refusal>(method, path, body, token);
  t.is(answer.status, 400, `${method} ${path}: ${JSON.stringify(answer.body)}`);
  t.is(answer.body.code, 'invalid_argument');
  t.deepEqual(
    answer.body.issues?.map((issue) => issue.key),
    [key],
    `${method} ${path}: ${JSON.stringify(answer.body.issues)}`,
  );
}

test('sign-in endpoints refuse NUL, lone surrogates and control characters in the username by name', async (t) => {
  for (const username of [NUL, LONE, BELL]) {
    await refusedOverHttp(t, 'POST', '/api/auth/password/login', { username, password: 'correct horse battery staple' }, 'username');
    await refusedOverHttp(t, 'POST', '/api/auth/opaque/login/start', { username, startLoginRequest: OPAQUE_KE1 }, 'username');
    await refusedOverHttp(t, 'POST', '/api/auth/webauthn/login/options', { username }, 'username');
  }
});

test('signup, email, two-factor and session fields refuse them too', async (t) => {
  await refusedOverHttp(t, 'POST', '/api/auth/password/register', { username: `ok_${uniqueIp().replace(/[^0-9a-f]/g, '').slice(-20)}`, password: 'correct horse battery staple', displayName: LONE }, 'displayName');
  await refusedOverHttp(t, 'POST', '/api/auth/password/register', { username: NUL, password: 'correct horse battery staple' }, 'username');
  await refusedOverHttp(t, 'POST', '/api/auth/password/login', { username: 'someone', password: LONE }, 'password');
  await refusedOverHttp(t, 'POST', '/api/auth/opaque/register/start', { username: 'someone', registrationRequest: NUL }, 'registrationRequest');
  await refusedOverHttp(t, 'POST', '/api/auth/email/signup/start', { email: `x${NUL}@example.com`, username: 'someone' }, 'email');
  await refusedOverHttp(t, 'POST', '/api/auth/password/reset/start', { email: `x${LONE}@example.com` }, 'email');
  await refusedOverHttp(t, 'POST', '/api/auth/password/reset/finish', { email: 'x@example.com', code: NUL, password: 'correct horse battery staple' }, 'code');
  await refusedOverHttp(t, 'POST', '/api/auth/2fa/verify', { challengeToken: NUL, code: '123456' }, 'challengeToken');
  await refusedOverHttp(t, 'POST', '/api/auth/opaque/login/finish', { loginId: NUL, finishLoginRequest: OPAQUE_KE3 }, 'loginId');
  await refusedOverHttp(t, 'POST', '/api/auth/refresh', { refreshToken: NUL }, 'refreshToken');
  const admin = await g.bed.admin('texts');
  await refusedOverHttp(t, 'GET', `/api/admin/users?q=${encodeURIComponent(NUL)}`, undefined, 'q', admin.token);
});

test('gRPC SignInWithPassword and StartOpaqueLogin answer INVALID_ARGUMENT naming the username', async (t) => {
  const client = g.client.as({ forwardedFor: uniqueIp() });
  for (const username of [NUL, BELL]) {
    const password = await refused(t, client.auth.SignInWithPassword({ username, password: 'correct horse battery staple' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
    t.deepEqual(password.issues.map((issue) => issue.key), ['username']);
    const opaque = await refused(t, client.auth.StartOpaqueLogin({ username, startLoginRequest: OPAQUE_KE1 }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
    t.deepEqual(opaque.issues.map((issue) => issue.key), ['username']);
  }
});

test('room strings: a media URL, a chat message id and a directory search with NUL are refused by name on HTTP and gRPC', async (t) => {
  const { member, as } = await g.user('texts');
  const created = await g.bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Text rules' }, member.token);
  t.is(created.status, 201);
  const roomId = created.body.room.id;
  await refusedOverHttp(t, 'POST', `/api/rooms/${roomId}/playlist`, { title: 'Film', url: `https://media.example.com/a${NUL}.mp4` }, 'url', member.token);
  await refusedOverHttp(t, 'POST', `/api/rooms/${roomId}/chat`, { text: 'hello', clientMessageId: LONE }, 'clientMessageId', member.token);
  await refusedOverHttp(t, 'GET', `/api/rooms?query=${encodeURIComponent(NUL)}`, undefined, 'query', member.token);

  const pushed = await refused(t, as.playlist.Push({ roomId, title: 'Film', url: `https://media.example.com/a${NUL}.mp4` }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.deepEqual(pushed.issues.map((issue) => issue.key), ['url']);
  const listed = await refused(t, as.rooms.ListPublicRooms({ query: NUL }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.deepEqual(listed.issues.map((issue) => issue.key), ['query']);
  // Nothing was written: the playlist is still empty.
  const playlist = await g.bed.call<{ items: unknown[] }>('GET', `/api/rooms/${roomId}/playlist`, undefined, member.token);
  t.deepEqual(playlist.body.items, []);
});
