/**
 * Per-member rates of room traffic through the real transports (gateways/rooms/room-rates.ts):
 * a member flooding chat is told to wait (HTTP 429 + Retry-After, a WebSocket error frame with
 * retryAfterMs and the socket left open, gRPC RESOURCE_EXHAUSTED) while another member of the
 * room goes on; a socket that keeps flooding is closed; realtime tickets are throttled per
 * user and, for guests, per address. The bed runs with low figures so a flood is short.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { BULK_MAX_ITEMS } from '../../../contracts/http/playlist.js';
import { connectGrpc, GrpcCallError, type SvcGrpc } from '../../../gateways/grpc/client.js';
import { CLOSE } from '../../../contracts/ws/constants.js';
import { RealtimeCommandError, requestTicket, RealtimeRefused } from '../../harness/ws-client.js';
import { startGatewayBed, type Answer, type GatewayBed, type Member } from '../bed.js';
import { createRoom, join, open, roomsOf, uniqueIp, type Rooms } from '../ws/fixtures.js';

const CHAT_RATE = 3;
const TICKET_RATE = 4;
const GUEST_TICKETS_PER_ADDRESS = 6;
/** Far more sends than any of the rates above lets through in one window, however slow the machine. */
const FLOOD = 60;

let bed: GatewayBed;
let rooms: Rooms;
let grpcClient: SvcGrpc;
test.before(async () => {
  bed = await startGatewayBed('room_rates', {
    env: {
      SVC_ROOMS_CHAT_RATE: String(CHAT_RATE),
      SVC_ROOMS_CHAT_BURST: String(CHAT_RATE),
      SVC_ROOMS_TICKET_RATE: String(TICKET_RATE),
      SVC_ROOMS_GUEST_TICKET_RATE_PER_ADDRESS: String(GUEST_TICKETS_PER_ADDRESS),
    },
  });
  rooms = await roomsOf(bed);
  grpcClient = connectGrpc(bed.grpcAddress);
});
test.after.always(async () => {
  grpcClient?.close();
  await rooms?.close();
  await bed?.close();
});

async function party(prefix: string): Promise<{ roomId: string; flooder: Member; friend: Member }> {
  const flooder = await bed.signUp(`${prefix}-flooder`);
  const friend = await bed.signUp(`${prefix}-friend`);
  const room = await createRoom(rooms, flooder, [friend]);
  return { roomId: room.id, flooder, friend };
}

/** Sends until the first answer that is not a success; the refusal, or undefined after FLOOD successes. */
async function floodUntilRefused<T>(send: (i: number) => Promise<T>, refused: (answer: T) => boolean): Promise<T | undefined> {
  for (let i = 0; i < FLOOD; i += 1) {
    const answer = await send(i);
    if (refused(answer)) return answer;
  }
  return undefined;
}

const chat = (roomId: string, member: Member, text: string): Promise<Answer> => bed.call('POST', `/api/rooms/${roomId}/chat`, { text }, member.token);

test('HTTP: a member flooding chat gets 429 rate_limited with Retry-After; another member of the room is unaffected', async (t) => {
  const { roomId, flooder, friend } = await party('http');
  const refusal = await floodUntilRefused((i) => chat(roomId, flooder, `spam ${i}`), (answer) => answer.status !== 201);
  t.truthy(refusal, `no refusal in ${FLOOD} sends`);
  t.is(refusal!.status, 429, JSON.stringify(refusal!.body));
  t.like(refusal!.body, { status: 429, code: 'rate_limited' });
  t.regex(String(refusal!.body.requestId), /.+/);
  t.true(Number(refusal!.headers.get('retry-after')) >= 1, `Retry-After: ${refusal!.headers.get('retry-after')}`);

  t.is((await chat(roomId, friend, 'hello')).status, 201, 'another member still chats');
  // Reads have their own budget: the flooder still sees the room.
  t.is((await bed.call('GET', `/api/rooms/${roomId}`, undefined, flooder.token)).status, 200);
});

test('WebSocket: a chat flood is answered with a rate_limited error frame carrying retryAfterMs, the socket stays open, and another member chats on', async (t) => {
  const { roomId, flooder, friend } = await party('ws');
  const socket = await open(bed, roomId, flooder);
  const other = await open(bed, roomId, friend);
  t.teardown(async () => {
    await socket.close();
    await other.close();
  });
  const refusal = await floodUntilRefused(
    (i) => socket.command({ kind: 'chat.send', text: `spam ${i}` }).then(() => undefined, (err: unknown) => err),
    (answer) => answer !== undefined,
  );
  t.true(refusal instanceof RealtimeCommandError, String(refusal));
  const { error } = refusal as RealtimeCommandError;
  t.like(error, { status: 429, code: 'rate_limited' });
  t.true((error.retryAfterMs ?? 0) >= 1000, `retryAfterMs ${error.retryAfterMs}`);

  await socket.ping();
  const { result } = await other.command({ kind: 'chat.send', text: 'hello' });
  t.is(result.message.text, 'hello');
});

test('WebSocket: a video reaction reaches the other member, and reactions spend the chat budget (the refusal names it)', async (t) => {
  const { roomId, flooder, friend } = await party('ws-react');
  const socket = await open(bed, roomId, flooder);
  const other = await open(bed, roomId, friend);
  t.teardown(async () => {
    await socket.close();
    await other.close();
  });
  t.deepEqual((await socket.command({ kind: 'reaction.send', reaction: 'fire' })).result, { sent: true });
  const seen = await other.waitForEvent((message) => message.event.type === 'reaction');
  t.deepEqual(seen.event, { type: 'reaction', userId: flooder.userId, reaction: 'fire' });

  const refusal = await floodUntilRefused(
    () => socket.command({ kind: 'reaction.send', reaction: 'heart' }).then(() => undefined, (err: unknown) => err),
    (answer) => answer !== undefined,
  );
  t.true(refusal instanceof RealtimeCommandError, String(refusal));
  t.like((refusal as RealtimeCommandError).error, { status: 429, code: 'rate_limited' });
  t.regex((refusal as RealtimeCommandError).error.message, /chat messages and reactions/);
  // One budget: the flooder's chat waits too; the friend's does not.
  const chatRefusal = await socket.command({ kind: 'chat.send', text: 'after the burst' }).then(() => undefined, (err: unknown) => err);
  t.like((chatRefusal as RealtimeCommandError).error, { code: 'rate_limited' });
  t.is((await other.command({ kind: 'chat.send', text: 'hello' })).result.message.text, 'hello');
});

test('WebSocket: a client that keeps sending while refused is closed with 4429', async (t) => {
  const { roomId, flooder } = await party('ws-flood');
  const socket = await open(bed, roomId, flooder);
  t.teardown(() => socket.close());
  let refusals = 0;
  for (let i = 0; i < 500; i += 1) {
    const err = await socket.command({ kind: 'chat.send', text: `spam ${i}` }).then(() => undefined, (caught: unknown) => caught);
    if (err instanceof RealtimeCommandError && err.error.code === 'rate_limited') refusals += 1;
    else if (err !== undefined) break;
  }
  const closed = await socket.closed;
  t.is(closed.code, CLOSE.flooding, closed.reason);
  t.true(refusals >= 1);
});

test('gRPC: a chat flood is refused RESOURCE_EXHAUSTED rate_limited with the seconds to wait', async (t) => {
  const { roomId, flooder, friend } = await party('grpc');
  const as = grpcClient.as({ token: flooder.token, forwardedFor: uniqueIp() });
  const refusal = await floodUntilRefused(
    (i) => as.chat.Send({ roomId, text: `spam ${i}` }).then(() => undefined, (err: unknown) => err),
    (answer) => answer !== undefined,
  );
  t.true(refusal instanceof GrpcCallError, String(refusal));
  const err = refusal as GrpcCallError;
  t.is(err.code, 'rate_limited', err.message);
  t.is(err.grpcStatus, grpc.status.RESOURCE_EXHAUSTED);
  t.true((err.retryAfterSeconds ?? 0) >= 1);
  t.like(await grpcClient.as({ token: friend.token, forwardedFor: uniqueIp() }).chat.Send({ roomId, text: 'hello' }), { message: { text: 'hello' } });
});

test('HTTP: a bulk playlist add is one request for the rates, however many items it adds', async (t) => {
  const { roomId, flooder } = await party('bulk');
  const items = Array.from({ length: BULK_MAX_ITEMS }, (_, i) => ({ title: `Item ${i}`, url: `https://media.example.com/${i}.mp4` }));
  const answer = await bed.call<{ added: unknown[]; rejected?: unknown }>('POST', `/api/rooms/${roomId}/playlist/bulk`, { items }, flooder.token);
  t.is(answer.status, 201, JSON.stringify(answer.body));
  t.is(answer.body.added.length, BULK_MAX_ITEMS, JSON.stringify(answer.body.rejected));
});

/** A ticket request's answer: the ticket, or the refusal's status, body and Retry-After. */
async function ticket(roomId: string, member: Member, address: string): Promise<{ status: number; code?: string | undefined; retryAfter?: string | null }> {
  try {
    await requestTicket(bed.url, roomId, member.token, { 'x-forwarded-for': address });
    return { status: 200 };
  } catch (err) {
    if (!(err instanceof RealtimeRefused)) throw err;
    const response = await fetch(`${bed.url}/api/rooms/${roomId}/realtime/ticket`, { method: 'POST', headers: { authorization: `Bearer ${member.token}`, 'x-forwarded-for': address } });
    return { status: response.status, code: ((await response.json()) as { code?: string }).code, retryAfter: response.headers.get('retry-after') };
  }
}

test('tickets: a user asking for realtime tickets in a loop gets 429 with Retry-After; another member still gets one', async (t) => {
  const { roomId, flooder, friend } = await party('tickets');
  const refusal = await floodUntilRefused(() => ticket(roomId, flooder, uniqueIp()), (answer) => answer.status !== 200);
  t.like(refusal, { status: 429, code: 'rate_limited' });
  t.true(Number(refusal!.retryAfter) >= 1, `Retry-After: ${refusal!.retryAfter}`);
  t.is((await ticket(roomId, friend, uniqueIp())).status, 200);
});

test('tickets: guests from one address share a budget, however many guest sessions they make', async (t) => {
  const { roomId, flooder } = await party('guest-tickets');
  const address = uniqueIp();
  let granted = 0;
  let refusal: { status: number; code?: string | undefined } | undefined;
  // Each guest stays under its own rate; the address runs out first.
  for (let i = 0; i < FLOOD && !refusal; i += 1) {
    const guest = await bed.guest(`Guest ${i}`);
    await join(rooms, roomId, guest);
    for (let j = 0; j < TICKET_RATE - 1 && !refusal; j += 1) {
      const answer = await ticket(roomId, guest, address);
      if (answer.status === 200) granted += 1;
      else refusal = answer;
    }
  }
  t.like(refusal, { status: 429, code: 'rate_limited' });
  t.true(granted <= GUEST_TICKETS_PER_ADDRESS, `${granted} tickets`);
  // A signed-in user from the same address is not held to the guests' budget.
  t.is((await ticket(roomId, flooder, address)).status, 200);
});
