/**
 * Behind `server.trusted_proxies` = 127.0.0.1/32 (the bed's requests come from it, as from a
 * proxy on the same host), the client address every transport counts by is the right-most
 * X-Forwarded-For entry outside the trusted networks: what the proxy appended, never the
 * left-most entries a client writes itself. Shown with the per-address signup limit (guest
 * sessions, 20 an hour) over HTTP and gRPC, and with the WebSocket upgrade's log lines.
 */
import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import pino from 'pino';
import { RealtimeClient, RealtimeRefused } from '../harness/ws-client.js';
import { LIMITS } from '../../accounts/rate-limits.js';
import { newRoomId } from '../../gateways/rooms/room-client.js';
import { waitFor } from '../fixtures/deadline.js';
import { uniqueIp } from '../fixtures/client-address.js';
import { refused, startGrpcBed, type GrpcBed } from './grpc/fixtures.js';

const lines: Array<Record<string, unknown>> = [];
const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });

let g: GrpcBed;
test.before(async () => {
  g = await startGrpcBed('client_address', { logger });
});
test.after.always(async () => {
  await g?.close();
});

const SIGNUPS = LIMITS.signUpPerIp.points;

/** Calls `attempt` until it is refused, at most one more time than the limit allows. */
async function untilRefused(attempt: () => Promise<boolean>): Promise<number> {
  for (let i = 1; i <= SIGNUPS + 1; i++) if (!(await attempt())) return i;
  return Number.POSITIVE_INFINITY;
}
/** As a client that writes its own X-Forwarded-For would reach us through the proxy. */
const spoofed = (client: string): string => `${uniqueIp()}, ${client}`;

test('HTTP: a client-chosen left-most X-Forwarded-For entry does not escape the per-address limit', async (t) => {
  const client = uniqueIp();
  const guest = (forwardedFor: string) => g.bed.call('POST', '/api/auth/guest', { displayName: 'Visitor' }, undefined, { 'x-svc-client': 'native', 'x-forwarded-for': forwardedFor });
  let over: Awaited<ReturnType<typeof guest>> | undefined;
  const refusedAt = await untilRefused(async () => {
    const answer = await guest(spoofed(client));
    if (answer.status === 200) return true;
    over = answer;
    return false;
  });
  t.true(refusedAt <= SIGNUPS + 1, 'every spoofed first entry was counted as a new client');
  t.is(over?.status, 429);
  t.is(over?.body.code, 'rate_limited');
  // The proxy's own address is not what is counted: the next client it appends is served.
  t.is((await guest(spoofed(uniqueIp()))).status, 200);
});

test('gRPC: a client-chosen left-most x-forwarded-for entry does not escape the per-address limit', async (t) => {
  const client = uniqueIp();
  const guest = () => g.client.as({ forwardedFor: spoofed(client) }).auth.SignInAsGuest({ displayName: 'Visitor' });
  let over: Promise<unknown> = Promise.resolve();
  const refusedAt = await untilRefused(async () => {
    const call = guest();
    const ok = await call.then(() => true, () => false);
    if (!ok) over = call;
    return ok;
  });
  t.true(refusedAt <= SIGNUPS + 1, 'every spoofed first entry was counted as a new client');
  await refused(t, over, 'rate_limited', grpc.status.RESOURCE_EXHAUSTED);
  const other = await g.client.as({ forwardedFor: spoofed(uniqueIp()) }).auth.SignInAsGuest({ displayName: 'Visitor' });
  t.is(other.principal, 'guest');
});

test('WebSocket: the upgrade names the address the proxy appended, not the one the client wrote', async (t) => {
  const client = uniqueIp();
  const written = uniqueIp();
  const requestId = `client-address-${client.replaceAll(':', '-')}`;
  const err = await RealtimeClient.connect({
    url: g.bed.url,
    roomId: newRoomId(),
    headers: { 'x-forwarded-for': `${written}, ${client}`, 'x-request-id': requestId },
  }).then(
    async (socket) => {
      await socket.close();
      throw new Error('the upgrade was accepted without credentials');
    },
    (caught: unknown) => caught,
  );
  t.true(err instanceof RealtimeRefused);
  const line = await waitFor('the refused upgrade logged', () => lines.find((entry) => entry.requestId === requestId && entry.msg === 'room socket refused'), 10_000);
  t.is(line.ip, client);
});
