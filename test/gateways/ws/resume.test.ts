/**
 * Resume (docs/2026-11-23-realtime-protocol.md R5, R7, R8, R16): a reconnecting client gets
 * exactly what it missed, or a snapshot when that is no longer held, on the same gateway
 * process or another one serving the room; events published during the reconnect are neither
 * lost nor doubled. A member connected throughout is the reference for what was published.
 */
import test from 'ava';
import type { RealtimeClient } from '../../harness/ws-client.js';
import type { EventMessage } from '../../../contracts/ws/protocol.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { callerOf, createRoom, open, roomsOf, type Rooms, type TestRoom } from './fixtures.js';

let first: GatewayBed;
let second: GatewayBed;
let rooms: Rooms;
const clients: RealtimeClient[] = [];

test.before(async () => {
  first = await startGatewayBed('ws_resume');
  second = await startGatewayBed('ws_resume_2', { databaseUrl: first.databaseUrl, roles: ['gateway'] });
  rooms = await roomsOf(first);
});
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await rooms?.close();
  await second?.close();
  await first?.close();
});

async function socket(bed: GatewayBed, roomId: string, member: Member, resumeAfter?: number): Promise<RealtimeClient> {
  const client = await open(bed, roomId, member, resumeAfter === undefined ? {} : { resumeAfter });
  clients.push(client);
  return client;
}

/** A room with a current media, so that seeks publish events cheaply. */
async function playingRoom(): Promise<{ room: TestRoom; owner: Member; member: Member; watcher: Member }> {
  const [owner, member, watcher] = await Promise.all([first.signUp('owner'), first.signUp('member'), first.signUp('watcher')]);
  const room = await createRoom(rooms, owner, [member, watcher]);
  const { result } = await rooms.client.send(room.id, { kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/film.mp4' }, callerOf(owner));
  await rooms.client.send(room.id, { kind: 'playlist.setCurrent', mediaId: result.item.id }, callerOf(owner));
  return { room, owner, member, watcher };
}

let position = 0;
async function seek(roomId: string, owner: Member): Promise<number> {
  position += 1;
  const { seq } = await rooms.client.send(roomId, { kind: 'playback.seek', position: position % 10_000 }, callerOf(owner));
  return seq;
}

/** Seeks back to back until stopped; resolves with the seq of the last one. */
function seekContinuously(roomId: string, owner: Member): { stop(): Promise<number> } {
  let running = true;
  let last = 0;
  const loop = (async () => {
    while (running) last = await seek(roomId, owner);
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return last;
    },
  };
}

const seqsOf = (events: EventMessage[]): number[] => events.map((event) => event.seq);

function assertGapless(t: import('ava').ExecutionContext, received: number[], reference: number[], from: number, to: number): void {
  const expected = reference.filter((seq) => seq > from && seq <= to);
  const got = received.filter((seq) => seq > from && seq <= to);
  t.deepEqual(got, expected, 'every event exactly once, in order');
}

test('R7: a reconnect with resume.<seq> gets exactly the missed events, even while the room keeps publishing', async (t) => {
  const { room, owner, member, watcher } = await playingRoom();
  const reference = await socket(first, room.id, watcher);
  const away = await socket(first, room.id, member);
  await seek(room.id, owner);
  await away.waitForEvent((event) => event.event.type === 'playback');
  const producer = seekContinuously(room.id, owner);
  await away.close();
  const before = seqsOf(away.events);
  // Events are published while the client is away and while it reconnects.
  await reference.waitForEvent((event) => event.seq > away.seq + 3);
  const back = await socket(first, room.id, member, away.seq);
  t.is(back.start.type, 'resumed');
  if (back.start.type === 'resumed') t.is(back.start.after, away.seq);
  const last = await producer.stop();
  await back.waitForEvent((event) => event.seq === last);
  await reference.waitForEvent((event) => event.seq === last);
  const received = [...before, ...seqsOf(back.events)];
  assertGapless(t, received, seqsOf(reference.events), away.start.seq, last);
});

test('R8: a resume from further back than the gateway holds gets a fresh snapshot instead, then continues', async (t) => {
  const { room, owner, member, watcher } = await playingRoom();
  await socket(first, room.id, watcher);
  const away = await socket(first, room.id, member);
  const lastSeen = away.seq;
  await away.close();
  // More events than a room's ring keeps (1000).
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next++ < 1100) await seek(room.id, owner);
    }),
  );
  const back = await socket(first, room.id, member, lastSeen);
  t.is(back.start.type, 'snapshot');
  t.is(back.snapshot?.reason, 'resume_unavailable');
  t.true(back.seq > lastSeen);
  const seq = await seek(room.id, owner);
  const event = await back.waitForEvent((e) => e.seq === seq);
  t.true(event.seq > back.snapshot!.seq);
  t.is(back.events.filter((e) => e.seq <= back.snapshot!.seq).length, 0, 'nothing the snapshot already holds');
});

test('R8: a resume from a seq the room never reached gets a snapshot', async (t) => {
  const { room, member } = await playingRoom();
  const client = await socket(first, room.id, member, 9_000_000_000_000);
  t.is(client.snapshot?.reason, 'resume_unavailable');
});

test('R7: the missed events include those the reconnect itself caused (presence), and nothing else', async (t) => {
  const { room, member, watcher } = await playingRoom();
  const reference = await socket(first, room.id, watcher);
  const client = await socket(first, room.id, member);
  await client.close();
  const back = await socket(first, room.id, member, client.seq);
  t.is(back.start.type, 'resumed');
  // Going offline and coming back online are events of the room like any other.
  await reference.waitForEvent((event) => event.seq === back.start.seq);
  t.deepEqual(
    seqsOf(back.events),
    seqsOf(reference.events.filter((event) => event.seq > client.seq && event.seq <= back.start.seq)),
  );
  t.true(back.events.length > 0);
  if (back.start.type === 'resumed') t.is(back.start.missed, back.events.length);
});

test('R16, R7: a client reconnecting to another gateway process that serves the room resumes there', async (t) => {
  const { room, owner, member, watcher } = await playingRoom();
  // The second process holds the room (and its recent events) for this watcher.
  const reference = await socket(second, room.id, watcher);
  const away = await socket(first, room.id, member);
  await seek(room.id, owner);
  await away.waitForEvent((event) => event.event.type === 'playback');
  await away.close();
  const before = seqsOf(away.events);
  const missedSeq = await seek(room.id, owner);
  await reference.waitForEvent((event) => event.seq === missedSeq);
  const back = await socket(second, room.id, member, away.seq);
  t.is(back.start.type, 'resumed');
  const last = await seek(room.id, owner);
  await back.waitForEvent((event) => event.seq === last);
  await reference.waitForEvent((event) => event.seq === last);
  assertGapless(t, [...before, ...seqsOf(back.events)], seqsOf(reference.events), away.start.seq, last);
});

test('R16, R8: reconnecting to a gateway process that does not hold the room gives a snapshot, never a silent gap', async (t) => {
  const { room, owner, member } = await playingRoom();
  const away = await socket(first, room.id, member);
  await away.close();
  await seek(room.id, owner);
  const back = await socket(second, room.id, member, away.seq);
  t.is(back.start.type, 'snapshot');
  t.is(back.snapshot?.reason, 'resume_unavailable');
});
