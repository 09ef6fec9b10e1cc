/**
 * R1, the page's own origin: a room socket opened from the address the browser used to reach
 * the service is accepted, whatever that address is (docs/2026-11-26-same-origin-sockets.md);
 * a foreign page is still refused, and the refusal is logged and explained by the ticket request.
 */
import test from 'ava';
import { RealtimeClient, requestTicket } from '../../harness/ws-client.js';
import { waitFor } from '../../fixtures/deadline.js';
import { capturingLogger } from '../http/fixtures.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { createRoom, refusal, roomsOf, type Rooms, type TestRoom } from './fixtures.js';

const log = capturingLogger();
let bed: GatewayBed;
let rooms: Rooms;
let member: Member;
let room: TestRoom;
let port: string;

test.before(async () => {
  bed = await startGatewayBed('ws_same_origin', { logger: log.logger });
  rooms = await roomsOf(bed);
  const [owner, joined] = await Promise.all([bed.signUp('owner'), bed.signUp('member')]);
  member = joined;
  room = await createRoom(rooms, owner, [member]);
  port = new URL(bed.url).port;
});
test.after.always(async () => {
  await rooms?.close();
  await bed?.close();
});

/** A socket as a page at `origin` opens it, addressed to `host` (the browser sends the one it used). */
async function connectAs(origin: string, host: string): Promise<RealtimeClient> {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  return RealtimeClient.connect({ url: bed.url, roomId: room.id, ticket, origin, headers: { host } });
}

test('R1: the page at http://127.0.0.1:<port> (as npm run dev prints it) opens the socket', async (t) => {
  const client = await connectAs(`http://127.0.0.1:${port}`, `127.0.0.1:${port}`);
  t.is(client.start.type, 'snapshot');
  await client.close();
});

test('R1: the page at http://localhost:<port> and at a LAN address opens the socket too', async (t) => {
  for (const host of [`localhost:${port}`, `192.168.1.20:${port}`, `watch.lan:${port}`]) {
    const client = await connectAs(`http://${host}`, host);
    t.is(client.start.type, 'snapshot', host);
    await client.close();
  }
});

test('R1: a foreign page is refused with 403 naming the origin, the address and the setting, and logged as a warning', async (t) => {
  const ticket = await requestTicket(bed.url, room.id, member.token);
  const refused = await refusal({ url: bed.url, roomId: room.id, ticket, origin: 'https://evil.example.net', headers: { host: `127.0.0.1:${port}` } });
  t.is(refused.status, 403);
  t.is(refused.body.code, 'forbidden');
  const message = String(refused.body.message);
  t.regex(message, /evil\.example\.net/);
  t.regex(message, new RegExp(`127\\.0\\.0\\.1:${port}`));
  t.regex(message, /server\.cors_allowed_origins/);
  const line = await waitFor('the refusal in the log', () =>
    log.lines.find((entry) => entry.requestId === refused.body.requestId && entry.msg === 'room socket refused: origin not allowed'),
  );
  t.is(line.level, 40);
  t.is(line.origin, 'https://evil.example.net');
  t.is(line.host, `127.0.0.1:${port}`);
  t.regex(String(line.reason), /not allowed to open room sockets/);
});

test('R1: the same host on another port, or 127.0.0.1 for a page at localhost, is another origin and refused', async (t) => {
  const otherPort = await connectAs(`http://127.0.0.1:1${port}`, `127.0.0.1:${port}`).then(
    () => 'accepted',
    (err: unknown) => (err as { status?: number }).status,
  );
  t.is(otherPort, 403);
  const crossed = await connectAs(`http://localhost:${port}`, `127.0.0.1:${port}`).then(
    () => 'accepted',
    (err: unknown) => (err as { status?: number }).status,
  );
  t.is(crossed, 403);
});

test('the ticket request of a page the socket would refuse says why (403), so the page can tell its visitor', async (t) => {
  const path = `${bed.url}/api/rooms/${room.id}/realtime/ticket`;
  const foreign = await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${member.token}`, origin: 'http://evil.example.net' } });
  t.is(foreign.status, 403);
  const body = (await foreign.json()) as { code: string; message: string };
  t.is(body.code, 'forbidden');
  t.regex(body.message, /evil\.example\.net.*server\.cors_allowed_origins/);
  const own = await fetch(path, { method: 'POST', headers: { authorization: `Bearer ${member.token}`, origin: bed.url } });
  t.is(own.status, 200);
});
