/**
 * Fan-out across gateway processes and slow consumers (docs/2026-11-23-realtime-protocol.md
 * R14, R16): members of one room on two gateway processes see the same events; a client that
 * stops reading is closed with 4008 while the others keep receiving.
 */
import test from 'ava';
import type { RealtimeClient } from '../../harness/ws-client.js';
import { waitFor } from '../../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { callerOf, createRoom, metric, open, roomsOf, type Rooms } from './fixtures.js';

let first: GatewayBed;
let second: GatewayBed;
let rooms: Rooms;
const clients: RealtimeClient[] = [];

test.before(async () => {
  first = await startGatewayBed('ws_fanout');
  second = await startGatewayBed('ws_fanout_2', { databaseUrl: first.databaseUrl, roles: ['gateway'] });
  rooms = await roomsOf(first);
});
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await rooms?.close();
  await second?.close();
  await first?.close();
});

async function socket(bed: GatewayBed, roomId: string, member: Member): Promise<RealtimeClient> {
  const client = await open(bed, roomId, member);
  clients.push(client);
  return client;
}

test('R16: a command on one gateway process reaches the sockets on the other, with the same seqs', async (t) => {
  const people = await Promise.all(Array.from({ length: 6 }, (_, i) => first.signUp(`m${i}`)));
  const [owner, ...members] = people;
  const room = await createRoom(rooms, owner!, members);
  const host = await socket(first, room.id, owner!);
  const sockets = await Promise.all(members.map((member, i) => socket(i % 2 === 0 ? first : second, room.id, member)));
  const { seq } = await host.command({ kind: 'chat.send', text: 'hello from gateway 1' });
  for (const client of sockets) {
    const event = await client.waitForEvent((e) => e.seq === seq);
    t.is(event.event.type, 'chat.message');
  }
  // And back: a command through the second process reaches the first.
  const remote = sockets[1]!;
  const reply = await remote.command({ kind: 'chat.send', text: 'hello from gateway 2' });
  await host.waitForEvent((e) => e.seq === reply.seq);
  // Each process holds the room once.
  t.is(await metric(second, 'realtime_room_subscriptions'), 1);
});

test('R14: a client that stops reading is closed with 4008 while the others keep receiving', async (t) => {
  const [owner, slowMember, fastMember] = await Promise.all([first.signUp('owner'), first.signUp('slow'), first.signUp('fast')]);
  const room = await createRoom(rooms, owner, [slowMember, fastMember]);
  // One large item (about 60 KB of JSON): every edit publishes it whole.
  const big = {
    title: 'Large item',
    url: 'https://media.example.com/large.mp4',
    headers: Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`x-header-${i}`, 'v'.repeat(1000)])),
    subtitles: Array.from({ length: 20 }, (_, i) => ({ name: `Track ${i}`, url: `https://media.example.com/${'s'.repeat(1900)}/${i}.vtt` })),
  };
  const { result } = await rooms.client.send(room.id, { kind: 'playlist.push', ...big }, callerOf(owner));
  const slow = await socket(first, room.id, slowMember);
  const fast = await socket(first, room.id, fastMember);
  const before = await metric(first, 'realtime_slow_consumer_closes_total');
  slow.pauseReading();

  // Edit until the gateway gives up on the slow socket: the kernel's buffers fill first, then the 1 MiB send buffer.
  let edits = 0;
  let lastSeq = 0;
  await waitFor(
    'the slow consumer to be closed',
    async () => {
      for (let i = 0; i < 20; i += 1) {
        edits += 1;
        ({ seq: lastSeq } = await rooms.client.send(room.id, { kind: 'playlist.edit', mediaId: result.item.id, title: `Edit ${edits}` }, callerOf(owner)));
      }
      return (await metric(first, 'realtime_slow_consumer_closes_total')) > before ? true : undefined;
    },
    60_000,
    0,
  );
  t.true(edits < 1000, `${edits} edits`);
  // The reading member got every edit, and goes on getting events.
  await fast.waitForEvent((event) => event.seq === lastSeq, 20_000);
  t.is(fast.events.filter((event) => event.event.type === 'playlist').length, edits);
  const { seq } = await rooms.client.send(room.id, { kind: 'chat.send', text: 'still flowing' }, callerOf(owner));
  await fast.waitForEvent((event) => event.seq === seq);
  // The slow client reads again: what was queued, then the close with its reason.
  slow.resumeReading();
  const closed = await slow.closed;
  t.is(closed.code, 4008);
  t.regex(closed.reason, /slow consumer/);
});
