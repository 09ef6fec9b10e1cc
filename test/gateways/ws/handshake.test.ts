/**
 * Who may open a room socket, and how refusals look (docs/2026-11-23-realtime-protocol.md,
 * R1, R2, R15): every refusal is an HTTP response in the API's error shape, before the upgrade.
 */
import { request } from 'node:http';
import test from 'ava';
import { Redis } from 'ioredis';
import { RealtimeClient, RealtimeClosed, requestTicket } from '../../harness/ws-client.js';
import { TICKET_KEY_PREFIX } from '../../../gateways/ws/tickets.js';
import { testStack } from '../../harness/stack.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { ALLOWED_ORIGIN, createRoom, metric, open, refusal, roomsOf, type Rooms, type TestRoom } from './fixtures.js';

let bed: GatewayBed;
let rooms: Rooms;
let redis: Redis;
let owner: Member;
let member: Member;
let stranger: Member;
let room: TestRoom;

test.before(async () => {
  bed = await startGatewayBed('ws_handshake');
  rooms = await roomsOf(bed);
  redis = new Redis(testStack().redisUrl);
  [owner, member, stranger] = await Promise.all([bed.signUp('owner'), bed.signUp('member'), bed.signUp('stranger')]);
  room = await createRoom(rooms, owner, [member]);
});
test.after.always(async () => {
  await rooms?.close();
  redis?.disconnect();
  await bed?.close();
});

const isErrorBody = (body: Record<string, unknown>, status: number, code: string): boolean =>
  typeof body.requestId === 'string' && body.status === status && body.code === code && typeof body.message === 'string';

test('R15: an active member gets a single-use ticket and the protocol list to offer', async (t) => {
  const answer = await bed.call<{ ticket: string; expiresIn: number; path: string; protocols: string[] }>('POST', `/api/rooms/${room.id}/realtime/ticket`, undefined, member.token);
  t.is(answer.status, 200);
  t.true(answer.body.expiresIn > 0 && answer.body.expiresIn <= 30);
  t.is(answer.body.path, `/api/rooms/${room.id}/realtime`);
  t.deepEqual(answer.body.protocols, ['svc.v1', `ticket.${answer.body.ticket}`]);
  t.is(answer.headers.get('cache-control'), 'no-store');
  // Stored in Redis with its TTL, never longer than the ticket lives.
  const ttl = await redis.ttl(`${TICKET_KEY_PREFIX}:${answer.body.ticket}`);
  t.true(ttl > 0 && ttl <= 30, `ttl ${ttl}`);
});

test('R15: no ticket for someone who is not an active member, or not signed in', async (t) => {
  const outsider = await bed.call('POST', `/api/rooms/${room.id}/realtime/ticket`, undefined, stranger.token);
  t.is(outsider.status, 403);
  t.true(isErrorBody(outsider.body, 403, 'forbidden'));
  const anonymous = await bed.call('POST', `/api/rooms/${room.id}/realtime/ticket`);
  t.is(anonymous.status, 401);
  const nowhere = await bed.call('POST', `/api/rooms/no-such-room-${Date.now()}/realtime/ticket`, undefined, member.token);
  t.is(nowhere.status, 404);
  t.true(isErrorBody(nowhere.body, 404, 'not_found'));
});

test('R1: a socket without credentials is refused with 401 saying to request a ticket', async (t) => {
  const refused = await refusal({ url: bed.url, roomId: room.id, origin: ALLOWED_ORIGIN });
  t.is(refused.status, 401);
  t.true(isErrorBody(refused.body, 401, 'unauthenticated'));
  t.regex(String(refused.body.message), /realtime\/ticket/);
});

test('R1: a used ticket is refused with 401; the first use worked', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  const first = await RealtimeClient.connect({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(first.start.type, 'snapshot');
  const refused = await refusal({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(refused.status, 401);
  t.true(isErrorBody(refused.body, 401, 'unauthenticated'));
  t.regex(String(refused.body.message), /request a new ticket/);
  await first.close();
});

test('R1: an expired ticket is refused with 401 saying to request a new one', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  // Expire it now rather than waiting 30 s: Redis drops it as it would at the end of its TTL.
  t.is(await redis.pexpire(`${TICKET_KEY_PREFIX}:${ticket}`, 1), 1);
  await new Promise((resolve) => setTimeout(resolve, 5));
  const refused = await refusal({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(refused.status, 401);
  t.true(isErrorBody(refused.body, 401, 'unauthenticated'));
  t.regex(String(refused.body.message), /request a new ticket/);
});

test('R1: a ticket of another room is refused with 401', async (t) => {
  const other = await createRoom(rooms, owner, [member]);
  const ticket = await requestTicket(bed.url, other.id, member.token);
  const refused = await refusal({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(refused.status, 401);
  t.regex(String(refused.body.message), /another room/);
});

test('R1: someone who is not a member is refused with 403 (bearer), and a member who left with 403 (ticket)', async (t) => {
  const refused = await refusal({ url: bed.url, roomId: room.id, token: stranger.token });
  t.is(refused.status, 403);
  t.true(isErrorBody(refused.body, 403, 'forbidden'));

  // The ticket was issued while a member; membership is checked again at the upgrade.
  const leaver = await bed.signUp('leaver');
  const own = await createRoom(rooms, owner, [leaver]);
  const ticket = await requestTicket(bed.url, own.id, leaver.token);
  await rooms.client.send(own.id, { kind: 'member.leave' }, { kind: 'user', userId: leaver.userId, sessionId: leaver.sessionId, username: leaver.username, displayName: leaver.username, role: 'user' });
  const late = await refusal({ url: bed.url, roomId: own.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(late.status, 403);
  t.true(isErrorBody(late.body, 403, 'forbidden'));
});

test('R1: an origin that is not accepted is refused with 403, before the ticket is spent', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  const refused = await refusal({ url: bed.url, roomId: room.id, ticket, origin: 'https://evil.example.net' });
  t.is(refused.status, 403);
  t.true(isErrorBody(refused.body, 403, 'forbidden'));
  t.regex(String(refused.body.message), /evil\.example\.net/);
  // A ticket without any Origin is refused as well (tickets are for browser pages).
  const bare = await refusal({ url: bed.url, roomId: room.id, ticket });
  t.is(bare.status, 403);
  // The ticket is still good from the right origin.
  const client = await RealtimeClient.connect({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN });
  t.is(client.start.type, 'snapshot');
  await client.close();
});

test("R1: the service's own origin is accepted, and a native client with a bearer token needs none", async (t) => {
  // webauthn.rp_origin of the bed (server.public_url is empty).
  const own = await open(bed, room.id, member, { origin: 'https://svc.test' });
  t.is(own.start.type, 'snapshot');
  await own.close();
  const native = await RealtimeClient.connect({ url: bed.url, roomId: room.id, token: member.token });
  t.is(native.start.type, 'snapshot');
  await native.close();
  const badToken = await refusal({ url: bed.url, roomId: room.id, token: `${member.token.slice(0, -4)}AAAA` });
  t.is(badToken.status, 401);
});

test('R1: a path that is not a room socket is refused with 404 in the error shape', async (t) => {
  const answer = await rawUpgrade('/api/rooms/x/elsewhere', { 'sec-websocket-protocol': 'svc.v1' });
  t.is(answer.status, 404);
  t.true(isErrorBody(answer.body, 404, 'not_found'));
  t.is(answer.headers['x-request-id'], answer.body.requestId);
});

test('R2: the server selects svc.v1', async (t) => {
  const client = await open(bed, room.id, member, { versions: ['svc.v1'] });
  t.is(client.protocol, 'svc.v1');
  await client.close();
});

test('R2: only unknown versions: the socket opens and closes with 4426 naming the versions spoken', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  const error = await t.throwsAsync(RealtimeClient.connect({ url: bed.url, roomId: room.id, ticket, origin: ALLOWED_ORIGIN, versions: ['svc.v9'] }));
  t.true(error instanceof RealtimeClosed);
  t.is((error as RealtimeClosed).code, 4426);
  t.regex((error as RealtimeClosed).reason, /svc\.v9 is not supported; this server speaks svc\.v1/);
});

test('R2: no version at all is refused with 400 before the upgrade', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  const answer = await rawUpgrade(`/api/rooms/${room.id}/realtime`, { 'sec-websocket-protocol': `ticket.${ticket}`, origin: ALLOWED_ORIGIN });
  t.is(answer.status, 400);
  t.true(isErrorBody(answer.body, 400, 'invalid_argument'));
  t.regex(String(answer.body.message), /svc\.v1/);
});

test.serial('refusals are counted by status', async (t) => {
  const before = await metric(bed, 'realtime_upgrades_refused_total', 'status="404"');
  await rawUpgrade('/nowhere', {});
  t.is(await metric(bed, 'realtime_upgrades_refused_total', 'status="404"'), before + 1);
});

/** An upgrade request by hand, for refusals a WebSocket client cannot provoke. */
function rawUpgrade(path: string, headers: Record<string, string>): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = request(`${bed.url}${path}`, {
      headers: { connection: 'Upgrade', upgrade: 'websocket', 'sec-websocket-version': '13', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', ...headers },
    });
    req.on('upgrade', () => reject(new Error('upgraded')));
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
    });
    req.on('error', reject);
    req.end();
  });
}
