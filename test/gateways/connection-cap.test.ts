/**
 * The per-user cap on room connections in one gateway process (gateways/connection-cap.ts):
 * past it the next room socket is refused with 429 and Retry-After, the next WatchRoom with
 * RESOURCE_EXHAUSTED; other users are not affected, and closing a connection frees a slot.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { MAX_CONNECTIONS_PER_USER } from '../../gateways/connection-cap.js';
import { connectGrpc, type SvcGrpc } from '../../gateways/grpc/client.js';
import type { WatchRoomResponse__Output } from '../../gateways/grpc/gen/svc/v1/WatchRoomResponse.js';
import { GrpcCallError } from '../../gateways/grpc/status.js';
import { RealtimeClient } from '../harness/ws-client.js';
import { connectProtocols, realtimePath } from '../../contracts/ws/constants.js';
import { uniqueIp } from '../fixtures/client-address.js';
import { waitFor, withDeadline } from '../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed, type Member } from './bed.js';
import { createRoom, roomsOf, type Rooms } from './ws/fixtures.js';

let bed: GatewayBed;
let rooms: Rooms;
let grpcClient: SvcGrpc;
const clients: RealtimeClient[] = [];
const streams: grpc.ClientReadableStream<WatchRoomResponse__Output>[] = [];

test.before(async () => {
  bed = await startGatewayBed('connection_cap');
  rooms = await roomsOf(bed);
  grpcClient = connectGrpc(bed.grpcAddress);
});
test.after.always(async () => {
  for (const stream of streams) stream.cancel();
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  grpcClient?.close();
  await rooms?.close();
  await bed?.close();
});

/** A native client's socket (bearer token, no ticket). */
async function socket(roomId: string, member: Member): Promise<RealtimeClient> {
  const client = await RealtimeClient.connect({ url: bed.url, roomId, token: member.token });
  clients.push(client);
  return client;
}

/** A WatchRoom stream: resolves with its first message, or rejects with the call's error. */
function watch(roomId: string, member: Member): Promise<WatchRoomResponse__Output> {
  const stream = grpcClient.as({ token: member.token, forwardedFor: uniqueIp() }).watchRoom({ roomId });
  streams.push(stream);
  return withDeadline(
    new Promise((resolve, reject) => {
      stream.once('data', resolve);
      stream.once('error', reject);
    }),
    10_000,
    'the WatchRoom start or refusal',
  );
}

/** The plain HTTP answer to an upgrade the gateway refuses, headers included. */
function refusedUpgrade(roomId: string, member: Member): Promise<{ status: number; retryAfter: string | undefined; body: { code?: string; status?: number } }> {
  return withDeadline(
    new Promise((resolve, reject) => {
      const req = request(`${bed.url}${realtimePath(roomId)}`, {
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          'sec-websocket-protocol': connectProtocols({}).join(', '),
          authorization: `Bearer ${member.token}`,
        },
      });
      req.once('upgrade', (_res, raw) => {
        raw.destroy();
        reject(new Error('the upgrade was accepted'));
      });
      req.once('response', (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        res.once('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'], body: JSON.parse(text) as { code?: string } }));
      });
      req.once('error', reject);
      req.end();
    }),
    10_000,
    'the refused upgrade',
  );
}

test('past the per-user cap the next socket gets 429 with Retry-After and the next WatchRoom RESOURCE_EXHAUSTED; others are unaffected; closing one frees a slot', async (t) => {
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('hoarder')]);
  const room = await createRoom(rooms, owner, [member]);
  // The cap counts sockets and streams together.
  const open: RealtimeClient[] = [];
  for (let i = 0; i < MAX_CONNECTIONS_PER_USER - 1; i += 1) open.push(await socket(room.id, member));
  t.truthy((await watch(room.id, member)).snapshot);

  const refused = await refusedUpgrade(room.id, member);
  t.is(refused.status, 429);
  t.is(refused.retryAfter, '10');
  t.like(refused.body, { status: 429, code: 'limit_exceeded' });

  const err = await watch(room.id, member).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(err instanceof GrpcCallError)) throw err;
  t.is(err.grpcStatus, grpc.status.RESOURCE_EXHAUSTED);
  t.is(err.code, 'limit_exceeded');
  t.is(err.retryAfterSeconds, 10);

  // Another user in the same room is not affected.
  await socket(room.id, owner);

  await open[0]!.close();
  const again = await waitFor('a slot to free up', async () => {
    try {
      return await socket(room.id, member);
    } catch {
      return undefined;
    }
  }, 10_000);
  t.truthy(again);
});
