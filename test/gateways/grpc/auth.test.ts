import * as grpc from '@grpc/grpc-js';
import * as opaque from '@serenity-kit/opaque';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import { ERROR_CODE_KEY } from '../../../gateways/grpc/status.js';
import { uniqueIp, refused, startGrpcBed, type GrpcBed } from './fixtures.js';

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('grpc_auth');
});
test.after.always(async () => {
  await g?.close();
});

const PASSWORD = 'correct horse battery staple';

test('password sign-in opens a session whose token works and whose refresh token rotates', async (t) => {
  const { member } = await g.user('signin');
  const client = g.client.as({ forwardedFor: uniqueIp() });
  const answer = await client.auth.SignInWithPassword({ username: member.username, password: PASSWORD });
  t.is(answer.result, 'session');
  const session = answer.session!;
  t.like(session, { tokenType: 'Bearer', principal: 'user', user: { id: member.userId, username: member.username, role: 'SERVICE_ROLE_USER', state: 'USER_STATE_ACTIVE' } });
  t.true(session.expiresIn > 0);
  t.true(session.refreshExpiresAt > Date.now());
  t.truthy(session.refreshToken);

  // The access token works as bearer metadata.
  const { room } = await client.as(session.accessToken).rooms.CreateRoom({ name: 'Signed in', visibility: 'ROOM_VISIBILITY_HIDDEN' });
  t.is(room!.ownerId, member.userId);

  // Refresh: new tokens for the same session; the old refresh token is spent.
  const refreshed = await client.auth.RefreshSession({ refreshToken: session.refreshToken });
  t.is(refreshed.sessionId, session.sessionId);
  t.not(refreshed.refreshToken, session.refreshToken);
  await client.as(refreshed.accessToken).rooms.GetRoom({ roomId: room!.id });
  // Once the new token was itself exchanged, the old one is spent for good, even within the
  // grace window that lets concurrent refreshes of one token share its successor.
  const again = await client.auth.RefreshSession({ refreshToken: refreshed.refreshToken });
  await refused(t, client.auth.RefreshSession({ refreshToken: session.refreshToken }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  // Presenting a spent token revoked the whole session (a stolen token used by two parties).
  await refused(t, client.as(again.accessToken).rooms.GetRoom({ roomId: room!.id }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
});

test('wrong password and unknown user get the same UNAUTHENTICATED; invalid input names the field', async (t) => {
  const { member } = await g.user('wrong');
  const client = g.client.as({ forwardedFor: uniqueIp() });
  const wrong = await refused(t, client.auth.SignInWithPassword({ username: member.username, password: 'not the password' }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  const unknown = await refused(t, client.auth.SignInWithPassword({ username: `nobody_${randomUUID().slice(0, 8)}`, password: PASSWORD }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  t.is(wrong.message, unknown.message);

  const invalid = await refused(t, client.auth.SignInWithPassword({ username: '', password: PASSWORD }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(invalid.issues[0]?.key, 'username');
  const noToken = await refused(t, client.auth.RefreshSession({}), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  t.regex(noToken.message, /refresh token/);
});

test('OPAQUE login start and finish open a session', async (t) => {
  await opaque.ready;
  const username = `opaque_${randomUUID().slice(0, 8)}`;
  // Registration over HTTP, as the web client does it.
  const { clientRegistrationState, registrationRequest } = opaque.client.startRegistration({ password: PASSWORD });
  const start = await g.bed.call<{ registrationResponse: string }>('POST', '/api/auth/opaque/register/start', { username, registrationRequest });
  t.is(start.status, 200);
  const { registrationRecord } = opaque.client.finishRegistration({ clientRegistrationState, registrationResponse: start.body.registrationResponse, password: PASSWORD });
  t.is((await g.bed.call('POST', '/api/auth/opaque/register/finish', { username, registrationRecord })).status, 201);

  const client = g.client.as({ forwardedFor: uniqueIp() });
  const { clientLoginState, startLoginRequest } = opaque.client.startLogin({ password: PASSWORD });
  const login = await client.auth.StartOpaqueLogin({ username, startLoginRequest });
  const finished = opaque.client.finishLogin({ clientLoginState, loginResponse: login.loginResponse, password: PASSWORD });
  t.truthy(finished);
  const answer = await client.auth.FinishOpaqueLogin({ loginId: login.loginId, finishLoginRequest: finished!.finishLoginRequest });
  t.like(answer, { result: 'session', session: { principal: 'user', user: { username } } });
  await refused(t, client.auth.FinishOpaqueLogin({ loginId: login.loginId, finishLoginRequest: finished!.finishLoginRequest }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
});

test.serial('guest sign-in, and SignOut ends the session at once (serial: it turns guests off for everyone)', async (t) => {
  const client = g.client.as({ forwardedFor: uniqueIp() });
  const guest = await client.auth.SignInAsGuest({ displayName: '  Popcorn  ' });
  t.like(guest, { principal: 'guest', guest: { displayName: 'Popcorn' }, tokenType: 'Bearer' });
  const as = client.as(guest.accessToken);
  await as.auth.SignOut({});
  await refused(t, as.auth.SignOut({}), 'unauthenticated', grpc.status.UNAUTHENTICATED);

  await g.bed.set('user', { enableGuest: false });
  try {
    await refused(t, client.auth.SignInAsGuest({ displayName: 'Nope' }), 'forbidden', grpc.status.PERMISSION_DENIED);
  } finally {
    await g.bed.set('user', { enableGuest: true });
  }
});

test('bearer metadata: missing, malformed, forged or revoked tokens are UNAUTHENTICATED with the code trailer', async (t) => {
  const { member } = await g.user('bearer');
  const roomId = 'AAAAAAAAAAAAAAAAAAAAAA';
  const missing = await refused(t, g.client.rooms.GetRoom({ roomId }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  t.regex(missing.message, /authorization: Bearer/);
  await refused(t, g.client.rooms.GetRoom({ roomId }, { metadata: { authorization: 'Basic dXNlcjpwYXNz' } }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  await refused(t, g.client.rooms.GetRoom({ roomId }, { token: `${member.token.slice(0, -4)}AAAA` }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
  await refused(t, g.client.rooms.GetRoom({ roomId }, { token: 'not-a-jwt' }), 'unauthenticated', grpc.status.UNAUTHENTICATED);

  // The raw trailers, as any client sees them, and the caller's request id echoed back.
  const raw = await new Promise<grpc.ServiceError>((resolve) => {
    const client = new grpc.Client(g.bed.grpcAddress, grpc.credentials.createInsecure());
    const metadata = new grpc.Metadata();
    metadata.set('x-request-id', 'trace-42');
    client.makeUnaryRequest(
      '/svc.v1.RoomService/GetRoom',
      () => Buffer.alloc(0),
      (buffer: Buffer) => buffer,
      {},
      metadata,
      (err) => {
        client.close();
        resolve(err!);
      },
    );
  });
  t.is(raw.code, grpc.status.UNAUTHENTICATED);
  t.deepEqual(raw.metadata.get(ERROR_CODE_KEY), ['unauthenticated']);
  t.deepEqual(raw.metadata.get('svc-request-id'), ['trace-42']);

  // A revoked session's token stops working on the next call.
  const as = g.client.as(member.token);
  const { room } = await as.rooms.CreateRoom({ name: 'Soon gone', visibility: 'ROOM_VISIBILITY_HIDDEN' });
  await as.auth.SignOut({});
  await refused(t, as.rooms.GetRoom({ roomId: room!.id }), 'unauthenticated', grpc.status.UNAUTHENTICATED);
});
