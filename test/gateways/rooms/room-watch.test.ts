import { randomUUID } from 'node:crypto';
import test from 'ava';
import { connect, type NatsConnection } from 'nats';
import type { Caller, UserCaller } from '../../../accounts/model.js';
import type { MemberRoomView, RoomEvent } from '../../../actors/room/index.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { AppError } from '../../../errors/app-error.js';
import { createLogger } from '../../../observability/logger.js';
import { newRoomId, RoomClient } from '../../../gateways/rooms/room-client.js';
import { RoomFeeds, type FeedEvent } from '../../../gateways/rooms/room-feed.js';
import { RoomWatcher, type RoomWatch, type WatchEndReason } from '../../../gateways/rooms/room-watch.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed } from '../bed.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
let bed: GatewayBed;
let nc: NatsConnection;
let rooms: RoomClient;
const opened: Array<{ close(): void }> = [];

test.before(async () => {
  bed = await startGatewayBed('room_watch');
  nc = await connect({ servers: bed.config.nats.url });
  rooms = new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix));
});
test.after.always(async () => {
  for (const feeds of opened) feeds.close();
  await nc?.close();
  await bed?.close();
});

const person = (name: string): UserCaller => ({ kind: 'user', userId: `${name}-${randomUUID().slice(0, 8)}`, sessionId: randomUUID(), username: name, displayName: name, role: 'user' });

/** A gateway process's view: its own subscription per room and its own rings. */
function gateway(options: { ringSize?: number } = {}): { watcher: RoomWatcher; events: ActorEvents } {
  const events = new ActorEvents(nc, bed.config.nats.subject_prefix, logger);
  const feeds = new RoomFeeds(events, nc, logger, options);
  opened.push(feeds);
  return { watcher: new RoomWatcher(feeds, rooms, bed.service.settings, logger), events };
}

async function roomWith(...members: Caller[]): Promise<{ id: string; owner: UserCaller }> {
  const owner = person('owner');
  const id = newRoomId();
  await rooms.send(id, { kind: 'room.create', name: 'Movie night', visibility: 'public' }, owner);
  for (const member of members) await rooms.send(id, { kind: 'member.join' }, member);
  return { id, owner };
}

/** Collects what a watch delivers, with waits on deadlines. */
class Collector {
  readonly events: FeedEvent[] = [];
  readonly snapshots: MemberRoomView[] = [];
  ended: { reason: WatchEndReason; message: string } | undefined;
  private wake: (() => void) | undefined;

  readonly listener = {
    event: (event: FeedEvent) => this.push(() => this.events.push(event)),
    snapshot: (view: MemberRoomView) => this.push(() => this.snapshots.push(view)),
    ended: (reason: WatchEndReason, message: string) => this.push(() => (this.ended = { reason, message })),
  };

  async until(what: string, done: () => boolean): Promise<void> {
    await withDeadline(
      (async () => {
        while (!done()) await new Promise<void>((resolve) => (this.wake = resolve));
      })(),
      10_000,
      what,
    );
  }

  ofType(type: RoomEvent['type']): FeedEvent[] {
    return this.events.filter((entry) => entry.event.type === type);
  }

  private push(change: () => void): void {
    change();
    this.wake?.();
  }
}

async function watch(watcher: RoomWatcher, roomId: string, caller: Caller, resumeFrom?: number): Promise<{ watch: RoomWatch; seen: Collector }> {
  const w = await watcher.open({ roomId, caller, connectionId: randomUUID(), ...(resumeFrom !== undefined ? { resumeFrom } : {}) });
  const seen = new Collector();
  w.begin(seen.listener);
  return { watch: w, seen };
}

const say = (roomId: string, caller: Caller, text: string) => rooms.send(roomId, { kind: 'chat.send', text }, caller);
const texts = (entries: FeedEvent[]): string[] => entries.flatMap((entry) => (entry.event.type === 'chat.message' ? [entry.event.message.text] : []));

test('a new watch starts from a snapshot and then gets every later event once, in seq order', async (t) => {
  const member = person('member');
  const { id, owner } = await roomWith(member);
  const { watch: w, seen } = await watch(gateway().watcher, id, member);
  t.is(w.start.kind, 'snapshot');
  const snapshot = (w.start as { snapshot: MemberRoomView }).snapshot;
  t.true(snapshot.members!.some((m) => m.userId === member.userId && m.online));
  for (const text of ['one', 'two', 'three']) await say(id, owner, text);
  await seen.until('three chat messages', () => texts(seen.events).length === 3);
  t.deepEqual(texts(seen.events), ['one', 'two', 'three']);
  const seqs = seen.events.map((entry) => entry.seq);
  t.true(seqs.every((seq, i) => seq > snapshot.seq && (i === 0 || seq > seqs[i - 1]!)));
  await w.close();
});

test('a reconnecting client resumes with exactly the events it missed', async (t) => {
  const [member, other] = [person('member'), person('other')];
  const { id, owner } = await roomWith(member, other);
  const gw = gateway();
  // Another socket of the room keeps the gateway's subscription (and ring) open meanwhile.
  const { seen: witness } = await watch(gw.watcher, id, other);
  const first = await watch(gw.watcher, id, member);
  await say(id, owner, 'before');
  await first.seen.until('the first message', () => texts(first.seen.events).includes('before'));
  const lastSeq = first.seen.events.at(-1)!.seq;
  await first.watch.close();
  for (const text of ['missed 1', 'missed 2']) await say(id, owner, text);
  await witness.until('the missed messages', () => texts(witness.events).includes('missed 2'));

  const again = await watch(gw.watcher, id, member, lastSeq);
  t.is(again.watch.start.kind, 'resumed');
  const resumed = again.watch.start as { events: FeedEvent[]; seq: number };
  const expected = witness.events.filter((entry) => entry.seq > lastSeq && entry.seq <= resumed.seq);
  t.deepEqual(resumed.events.map((entry) => entry.seq), expected.map((entry) => entry.seq));
  t.deepEqual(texts(resumed.events), ['missed 1', 'missed 2']);
  await say(id, owner, 'after');
  await again.seen.until('the live message', () => texts(again.seen.events).includes('after'));
  t.deepEqual(texts(again.seen.events), ['after']);
  t.false(again.seen.events.some((entry) => entry.seq <= resumed.seq), 'nothing delivered twice');
});

test('a resume the gateway cannot prove complete gets a snapshot instead', async (t) => {
  const member = person('member');
  const { id, owner } = await roomWith(member);
  const first = await watch(gateway().watcher, id, member);
  await say(id, owner, 'seen');
  await first.seen.until('a message', () => first.seen.events.length > 0);
  const lastSeq = first.seen.events.at(-1)!.seq;
  await first.watch.close();
  await say(id, owner, 'missed');
  // Another gateway process never saw this room's events.
  const elsewhere = await watch(gateway().watcher, id, member, lastSeq);
  t.is(elsewhere.watch.start.kind, 'snapshot');

  // And one whose ring has dropped the events after the client's seq.
  const small = gateway({ ringSize: 2 });
  const keeper = await watch(small.watcher, id, person('x')).catch(() => undefined);
  t.is(keeper, undefined, 'a non-member cannot watch');
  const witness = await watch(small.watcher, id, owner);
  const from = witness.watch.start.kind === 'snapshot' ? witness.watch.start.snapshot.seq : -1;
  for (const text of ['a', 'b', 'c']) await say(id, owner, text);
  await witness.seen.until('three messages', () => texts(witness.seen.events).length === 3);
  const tooOld = await watch(small.watcher, id, member, from);
  t.is(tooOld.watch.start.kind, 'snapshot');
  const b = witness.seen.events.find((entry) => entry.event.type === 'chat.message' && entry.event.message.text === 'b')!;
  const recent = await watch(small.watcher, id, member, b.seq);
  t.is(recent.watch.start.kind, 'resumed');
  t.deepEqual(texts((recent.watch.start as { events: FeedEvent[] }).events), ['c']);
});

test('sockets of one room in one gateway share one NATS subscription', async (t) => {
  const members = [person('a'), person('b'), person('c')];
  const { id } = await roomWith(...members);
  const gw = gateway();
  const before = gw.events.subscriptionCount();
  const watches = await Promise.all(members.map((member) => watch(gw.watcher, id, member)));
  t.is(gw.events.subscriptionCount(), before + 1);
  t.is(gw.events.listenerCount('room', id), 1);
  for (const { watch: w } of watches) await w.close();
});

test('a kicked member gets the event, then the watch ends with the reason', async (t) => {
  const member = person('member');
  const { id, owner } = await roomWith(member);
  const { seen } = await watch(gateway().watcher, id, member);
  await rooms.send(id, { kind: 'member.kick', userId: member.userId }, owner);
  await seen.until('the end of the watch', () => seen.ended !== undefined);
  t.is(seen.ended?.reason, 'kicked');
  t.like(seen.ofType('member.left').at(-1)?.event, { type: 'member.left', userId: member.userId, reason: 'kicked' });
  await say(id, owner, 'after the kick');
  // The owner's own watch proves the message went out; the kicked watch got nothing more.
  const { seen: ownerSeen } = await watch(gateway().watcher, id, owner);
  await say(id, owner, 'again');
  await ownerSeen.until('the owner sees chat', () => texts(ownerSeen.events).includes('again'));
  t.deepEqual(texts(seen.events), []);
});

test('events are filtered by the member permissions, following a role change at once', async (t) => {
  const member = person('member');
  const { id, owner } = await roomWith(member);
  // Members of this room may not see the member list; admins may.
  await rooms.send(id, { kind: 'room.update', permissionOverrides: { member: ['send_chat'] } }, owner);
  const { watch: w, seen } = await watch(gateway().watcher, id, member);
  t.false(w.permissions().has('view_member_list'));
  const newcomer = person('newcomer');
  await rooms.send(id, { kind: 'member.join' }, newcomer);
  await say(id, owner, 'marker 1');
  await seen.until('marker 1', () => texts(seen.events).includes('marker 1'));
  t.false(seen.events.some((entry) => entry.event.type === 'member.joined'), 'member list events withheld');

  await rooms.send(id, { kind: 'member.setRole', userId: member.userId, role: 'admin' }, owner);
  const latecomer = person('latecomer');
  await rooms.send(id, { kind: 'member.join' }, latecomer);
  await seen.until('the latecomer joining', () =>
    seen.events.some((entry) => entry.event.type === 'member.joined' && entry.event.member.userId === latecomer.userId),
  );
  t.true(w.permissions().has('view_member_list'));
  t.true(seen.events.some((entry) => entry.event.type === 'member.updated' && entry.event.member.userId === member.userId));
});

test('a deleted room ends every watch of it', async (t) => {
  const member = person('member');
  const { id, owner } = await roomWith(member);
  const { seen } = await watch(gateway().watcher, id, member);
  await rooms.send(id, { kind: 'room.delete' }, owner);
  await seen.until('the end', () => seen.ended !== undefined);
  t.is(seen.ended?.reason, 'room_deleted');
});

test('only active members can open a watch', async (t) => {
  const { id } = await roomWith();
  const error = await t.throwsAsync(gateway().watcher.open({ roomId: id, caller: person('stranger'), connectionId: randomUUID() }));
  t.true(error instanceof AppError);
  t.is((error as AppError).code, 'forbidden');
});
