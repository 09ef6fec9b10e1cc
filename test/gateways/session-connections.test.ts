/**
 * When a session ends, the room sockets and WatchRoom streams it opened end too, on every
 * gateway (gateways/session-connections.ts, docs/2026-11-26-session-revocation.md). Two gateway
 * processes share one database and NATS: the change is made through the first (a bed in this
 * process), the connections are held by the second (`svc serve --role gateway`, a child process).
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { connectGrpc, type SvcGrpc } from '../../gateways/grpc/client.js';
import type { WatchRoomResponse__Output } from '../../gateways/grpc/gen/svc/v1/WatchRoomResponse.js';
import { GrpcCallError } from '../../gateways/grpc/status.js';
import { CLOSE } from '../../contracts/ws/constants.js';
import { RealtimeClient, requestTicket } from '../harness/ws-client.js';
import { uniqueIp } from '../fixtures/client-address.js';
import { withDeadline } from '../fixtures/deadline.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../harness/replica.js';
import { ALLOWED_ORIGIN, BED_PASSWORD, startGatewayBed, type GatewayBed, type Member } from './bed.js';
import { createRoom, open, roomsOf, type Rooms } from './ws/fixtures.js';

let first: GatewayBed;
let second: Replica;
let rooms: Rooms;
let grpcSecond: SvcGrpc;
const clients: RealtimeClient[] = [];

/** Generous: the revocation reaches the other gateway within a second; a loaded CI machine gets slack. */
const WAIT_MS = 10_000;

test.before(async () => {
  // Both gateways sign with the same secrets, so a token from one is good on the other.
  const secrets = await generatedSecrets();
  first = await startGatewayBed('session_conns', { env: secrets });
  const env = await replicaEnv(first.databaseUrl, secrets, {
    SVC_NATS_SUBJECT_PREFIX: first.config.nats.subject_prefix,
    SVC_SERVER_CORS_ALLOWED_ORIGINS: ALLOWED_ORIGIN,
    SVC_SERVER_TRUST_PROXY: 'true',
    SVC_SERVER_TRUSTED_PROXIES: '127.0.0.1/32',
  });
  second = await startReplica(['--role', 'gateway', '--replica-id', 'second-gateway'], env);
  rooms = await roomsOf(first);
  grpcSecond = connectGrpc(`127.0.0.1:${env.SVC_GRPC_PORT}`);
  await first.set('user', { enableGuest: true });
});
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  grpcSecond?.close();
  await rooms?.close();
  await second?.process.terminate();
  await first?.close();
});

async function socketOnSecond(roomId: string, member: Member): Promise<RealtimeClient> {
  const ticket = await requestTicket(second.httpUrl, roomId, member.token, { 'x-forwarded-for': uniqueIp() });
  const client = await RealtimeClient.connect({ url: second.httpUrl, roomId, ticket, origin: ALLOWED_ORIGIN });
  clients.push(client);
  return client;
}

function closedWithin(client: RealtimeClient, what: string): Promise<{ code: number; reason: string }> {
  return withDeadline(client.closed, WAIT_MS, what);
}

/** A WatchRoom stream on the second gateway, started (its first message read). */
async function watchOnSecond(roomId: string, member: Member): Promise<{ ended: Promise<GrpcCallError> }> {
  const stream = grpcSecond.as({ token: member.token, forwardedFor: uniqueIp() }).watchRoom({ roomId });
  const ended = new Promise<GrpcCallError>((resolve, reject) => {
    stream.on('error', (err: GrpcCallError) => resolve(err));
    stream.on('status', (status: grpc.StatusObject) => {
      if (status.code === grpc.status.OK) reject(new Error('the stream ended with status OK'));
    });
  });
  await withDeadline(new Promise<WatchRoomResponse__Output>((resolve) => stream.once('data', resolve)), WAIT_MS, 'the watch start');
  return { ended };
}

async function signIn(member: Member): Promise<Member> {
  const answer = await first.call<{ accessToken: string; sessionId: string }>(
    'POST',
    '/api/auth/password/login',
    { username: member.username, password: BED_PASSWORD },
    undefined,
    { 'x-svc-client': 'native' },
  );
  if (answer.status !== 200) throw new Error(`sign-in failed: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ...member, token: answer.body.accessToken, sessionId: answer.body.sessionId };
}

test('a ban through one gateway closes the member socket (4401) and ends the WatchRoom stream (PERMISSION_DENIED) on the other', async (t) => {
  const [owner, member, admin] = await Promise.all([first.signUp('owner'), first.signUp('banned'), first.admin()]);
  const room = await createRoom(rooms, owner, [member]);
  const socket = await socketOnSecond(room.id, member);
  const witness = await socketOnSecond(room.id, owner);
  const { ended } = await watchOnSecond(room.id, member);

  const ban = await first.call('POST', `/api/admin/users/${member.userId}/ban`, { reason: 'spam' }, admin.token);
  t.is(ban.status, 200);

  const closed = await closedWithin(socket, 'the banned member socket to close');
  t.is(closed.code, CLOSE.sessionEnded);
  t.regex(closed.reason, /banned/);
  const err = await withDeadline(ended, WAIT_MS, 'the banned member stream to end');
  t.is(err.grpcStatus, grpc.status.PERMISSION_DENIED);
  t.is(err.code, 'account_banned');
  // The owner's socket on the same gateway is not touched.
  await witness.command({ kind: 'chat.send', text: 'still here' });
});

test('sign out everywhere closes every socket and stream of the user on the other gateway (4401, UNAUTHENTICATED)', async (t) => {
  const [owner, member] = await Promise.all([first.signUp('owner'), first.signUp('leaver')]);
  const room = await createRoom(rooms, owner, [member]);
  const elsewhere = await signIn(member);
  const socket = await socketOnSecond(room.id, member);
  const other = await socketOnSecond(room.id, elsewhere);
  const { ended } = await watchOnSecond(room.id, elsewhere);

  const answer = await first.call<{ revoked: number }>('POST', '/api/auth/logout-all', undefined, member.token);
  t.is(answer.status, 200);

  for (const [client, what] of [[socket, 'the first session socket'], [other, 'the second session socket']] as const) {
    const closed = await closedWithin(client, `${what} to close`);
    t.is(closed.code, CLOSE.sessionEnded);
    t.regex(closed.reason, /signed out everywhere/);
  }
  const err = await withDeadline(ended, WAIT_MS, 'the stream to end');
  t.is(err.grpcStatus, grpc.status.UNAUTHENTICATED);
  t.is(err.code, 'unauthenticated');
});

test('signing out one session closes only that session socket on the other gateway', async (t) => {
  const [owner, member] = await Promise.all([first.signUp('owner'), first.signUp('two_devices')]);
  const room = await createRoom(rooms, owner, [member]);
  const phone = await signIn(member);
  const laptopSocket = await socketOnSecond(room.id, member);
  const phoneSocket = await socketOnSecond(room.id, phone);

  t.is((await first.call('POST', '/api/auth/logout', undefined, phone.token)).status, 204);

  const closed = await closedWithin(phoneSocket, 'the signed-out session socket to close');
  t.is(closed.code, CLOSE.sessionEnded);
  await laptopSocket.command({ kind: 'chat.send', text: 'the other session stays' });
});

test('a password change closes the sockets of the other sessions and keeps the one that changed it', async (t) => {
  const [owner, member] = await Promise.all([first.signUp('owner'), first.signUp('changer')]);
  const room = await createRoom(rooms, owner, [member]);
  const other = await signIn(member);
  const keptSocket = await socketOnSecond(room.id, member);
  const otherSocket = await socketOnSecond(room.id, other);

  const answer = await first.call('POST', '/api/me/password', { currentPassword: BED_PASSWORD, password: 'a brand new long passphrase' }, member.token);
  t.is(answer.status, 200);

  const closed = await closedWithin(otherSocket, 'the other session socket to close');
  t.is(closed.code, CLOSE.sessionEnded);
  t.regex(closed.reason, /password was changed/);
  await keptSocket.command({ kind: 'chat.send', text: 'the changing session stays' });
});

test('turning user.enableGuest off closes the guests sockets on every gateway and keeps the users', async (t) => {
  const [owner, guest] = await Promise.all([first.signUp('owner'), first.guest('Visitor')]);
  const room = await createRoom(rooms, owner, [guest]);
  const guestSocket = await socketOnSecond(room.id, guest);
  const ownerSocket = await socketOnSecond(room.id, owner);
  try {
    await first.set('user', { enableGuest: false });
    const closed = await closedWithin(guestSocket, 'the guest socket to close');
    t.is(closed.code, CLOSE.sessionEnded);
    t.regex(closed.reason, /guest access was turned off/);
    await ownerSocket.command({ kind: 'chat.send', text: 'users stay' });
  } finally {
    await first.set('user', { enableGuest: true });
  }
});

test('a room kick through one gateway closes the kicked member socket on the other (4403)', async (t) => {
  const [owner, member] = await Promise.all([first.signUp('owner'), first.signUp('kicked')]);
  const room = await createRoom(rooms, owner, [member]);
  const socket = await socketOnSecond(room.id, member);
  const host = await open(first, room.id, owner);
  clients.push(host);

  await host.command({ kind: 'member.kick', userId: member.userId });

  const closed = await closedWithin(socket, 'the kicked member socket to close');
  t.is(closed.code, CLOSE.membershipEnded);
});
