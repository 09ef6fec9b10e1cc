/**
 * An open room socket (docs/2026-11-23-realtime-protocol.md): the start, commands, events,
 * clock samples, player reports, notifications, membership changes, subscriptions.
 */
import test from 'ava';
import type { MemberView } from '../../../actors/room/index.js';
import { RealtimeCommandError, type RealtimeClient } from '../../harness/ws-client.js';
import type { Notification } from '../../../contracts/notifications.js';
import { notificationSubject } from '../../../notifications/subjects.js';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';
import { callerOf, createRoom, join, metric, open, roomsOf, type Rooms } from './fixtures.js';

let bed: GatewayBed;
let rooms: Rooms;
const clients: RealtimeClient[] = [];

test.before(async () => {
  bed = await startGatewayBed('ws_session');
  rooms = await roomsOf(bed);
});
test.after.always(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await rooms?.close();
  await bed?.close();
});

async function socket(roomId: string, member: Member): Promise<RealtimeClient> {
  const client = await open(bed, roomId, member);
  clients.push(client);
  return client;
}

async function people(count: number): Promise<Member[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => bed.signUp(`p${i}`)));
}

test.serial('R16: one NATS subscription per room per gateway process, however many sockets', async (t) => {
  const [owner, a, b] = await people(3);
  const room = await createRoom(rooms, owner!, [a!, b!]);
  const before = await metric(bed, 'realtime_room_subscriptions');
  const sockets = await Promise.all([socket(room.id, owner!), socket(room.id, a!), socket(room.id, b!), socket(room.id, a!)]);
  t.is(await metric(bed, 'realtime_room_subscriptions'), before + 1);
  // Serial tests run first: these are the only sockets of this bed.
  t.is(await metric(bed, 'realtime_sockets_open'), 4);
  // Every socket still gets every event.
  await rooms.client.send(room.id, { kind: 'room.update', name: 'Renamed' }, callerOf(owner!));
  for (const client of sockets) await client.waitForEvent((event) => event.event.type === 'room.updated');
  t.pass();
});

test('R3: the first message is a snapshot of the room as this member sees it, with its seq', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  await rooms.client.send(room.id, { kind: 'playlist.push', title: 'Intro', url: 'https://media.example.com/intro.mp4' }, callerOf(owner!));
  const client = await socket(room.id, member!);
  t.is(client.start.type, 'snapshot');
  const snapshot = client.snapshot!;
  t.is(snapshot.reason, 'connect');
  t.is(snapshot.view.access, 'member');
  t.is(snapshot.view.room.id, room.id);
  t.is(snapshot.view.me.userId, member!.userId);
  t.is(snapshot.view.me.status, 'active');
  t.is(snapshot.view.playlist?.length, 1);
  t.is(typeof snapshot.view.playback.version, 'number');
  t.is(snapshot.seq, snapshot.view.seq);
  t.true(snapshot.connectionId.length > 0);
  // presence.enter: the member is online in its own snapshot.
  t.true(snapshot.view.members?.find((m: MemberView) => m.userId === member!.userId)?.online);
});

test('R4, R6: a command is answered ok with its result and seq, and its event follows on every socket', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  const [host, guest] = [await socket(room.id, owner!), await socket(room.id, member!)];
  const pushed = await host.command({ kind: 'playlist.push', title: 'Film', url: 'https://media.example.com/film.mp4' });
  t.is(pushed.result.item.title, 'Film');
  for (const client of [host, guest]) {
    // The push's events end at the answer's seq (the first item is also cued: a playback event).
    const event = await client.waitForEvent((e) => e.event.type === 'playlist' && e.seq <= pushed.seq);
    t.true(event.seq > client.start.seq);
  }
  // Seqs only grow, each at most once.
  const seqs = guest.events.map((event) => event.seq);
  t.deepEqual(seqs, [...new Set(seqs)].sort((x, y) => x - y));
});

test('R6: an error answers with the id and the error shape; the room refuses what the member may not do', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  const client = await socket(room.id, member!);
  const denied = await t.throwsAsync(client.command({ kind: 'room.update', name: 'Mine now' }, { id: 'deny-1' }));
  t.true(denied instanceof RealtimeCommandError);
  const { error } = denied as RealtimeCommandError;
  t.is(error.code, 'forbidden');
  t.is(error.status, 403);
  t.regex(error.requestId, /\/deny-1$/);
  t.is(typeof error.message, 'string');
  // Bad fields are named.
  const invalid = await t.throwsAsync<RealtimeCommandError>(client.command({ kind: 'chat.send', text: 'hi', colour: 'red' } as never));
  t.is(invalid.error.code, 'invalid_argument');
  t.deepEqual(invalid.error.issues?.map((issue) => issue.key), ['colour']);
  // Presence belongs to the gateway.
  const presence = await t.throwsAsync<RealtimeCommandError>(client.command({ kind: 'presence.leave', connectionId: 'x' }));
  t.is(presence.error.code, 'invalid_argument');
  t.is(presence.error.issues?.[0]?.key, 'command.kind');
});

test('R6: a resend with the same id runs once and gets the same answer', async (t) => {
  const [owner] = await people(1);
  const room = await createRoom(rooms, owner!);
  const client = await socket(room.id, owner!);
  const first = await client.command({ kind: 'chat.send', text: 'only once' }, { id: 'msg-1' });
  // A new socket (a reconnect) resending the same id.
  const again = await socket(room.id, owner!);
  const second = await again.command({ kind: 'chat.send', text: 'only once' }, { id: 'msg-1' });
  t.is(second.result.message.id, first.result.message.id);
  const history = await client.command({ kind: 'chat.history' });
  t.is(history.result.messages.filter((m) => m.text === 'only once').length, 1);
});

test('R18: a message outside the protocol gets an error naming the field; the socket stays open', async (t) => {
  const [owner] = await people(1);
  const room = await createRoom(rooms, owner!);
  const client = await socket(room.id, owner!);
  const notJson = client.waitFor((m): m is Extract<typeof m, { type: 'error' }> => m.type === 'error', 5_000, () => client.sendRaw('{nope'));
  t.is((await notJson).error.code, 'invalid_argument');
  const unknown = client.waitFor((m): m is Extract<typeof m, { type: 'error' }> => m.type === 'error' && m.id === 'u-1', 5_000, () =>
    client.sendRaw({ type: 'command', id: 'u-1', command: { kind: 'chat.send', text: 'x' }, extra: 1 }),
  );
  t.deepEqual((await unknown).error.issues?.map((issue) => issue.key), ['extra']);
  const { offset } = await client.ping();
  t.true(Number.isFinite(offset));
});

test('R10: a ping is answered with t0 and the server receive and send times', async (t) => {
  const [owner] = await people(1);
  const room = await createRoom(rooms, owner!);
  const client = await socket(room.id, owner!);
  const sample = await client.ping();
  t.is(typeof sample.pong.t0, 'number');
  t.true(sample.pong.t2 >= sample.pong.t1);
  t.true(sample.rtt >= 0);
  // The test process shares the server's clock: the estimate is the offset of one clock to itself, within the round trip.
  const estimate = await client.estimateClock(3);
  t.true(Math.abs(estimate.offset) <= estimate.rtt + 1, `offset ${estimate.offset} rtt ${estimate.rtt}`);
});

test('R11: player reports reach the room as member.player', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  const host = await socket(room.id, owner!);
  const viewer = await socket(room.id, member!);
  await viewer.player('buffering', null);
  const updated = await host.waitForEvent((e) => e.event.type === 'member.updated' && e.event.member.userId === member!.userId && e.event.member.player?.state === 'buffering');
  t.truthy(updated);
});

test('R12: a kicked member sees the event, then the socket closes with 4403 and a reason; others stay', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  const host = await socket(room.id, owner!);
  const kicked = await socket(room.id, member!);
  await host.command({ kind: 'member.kick', userId: member!.userId });
  const closed = await kicked.closed;
  t.is(closed.code, 4403);
  t.regex(closed.reason, /removed from the room/);
  t.truthy(kicked.events.find((e) => e.event.type === 'member.left' && e.event.userId === member!.userId));
  // The host's socket goes on.
  await host.command({ kind: 'chat.send', text: 'still here' });
});

test('R12: a ban closes every socket of the user in the room, and the room deletion everyone else with 4404', async (t) => {
  const [owner, member, other] = await people(3);
  const room = await createRoom(rooms, owner!, [member!, other!]);
  const tabs = [await socket(room.id, member!), await socket(room.id, member!)];
  const bystander = await socket(room.id, other!);
  await rooms.client.send(room.id, { kind: 'member.ban', userId: member!.userId }, callerOf(owner!));
  for (const tab of tabs) {
    const closed = await tab.closed;
    t.is(closed.code, 4403);
    t.regex(closed.reason, /banned/);
  }
  await rooms.client.send(room.id, { kind: 'room.delete' }, callerOf(owner!));
  const gone = await bystander.closed;
  t.is(gone.code, 4404);
  t.regex(gone.reason, /deleted/);
});

test('R12: a role change applies to the next command and to the events the member receives', async (t) => {
  const [owner, member, applicant] = await people(3);
  const room = await createRoom(rooms, owner!, [member!], { requireJoinApproval: false });
  const client = await socket(room.id, member!);
  await t.throwsAsync(client.command({ kind: 'member.kick', userId: owner!.userId }), { message: /forbidden/ });
  await rooms.client.send(room.id, { kind: 'room.update', requireJoinApproval: true }, callerOf(owner!));
  await rooms.client.send(room.id, { kind: 'member.setRole', userId: member!.userId, role: 'admin' }, callerOf(owner!));
  await client.waitForEvent((e) => e.event.type === 'member.updated' && e.event.member.userId === member!.userId && e.event.member.role === 'admin');
  // Join requests need manage_members, which admins hold.
  await join(rooms, room.id, applicant!);
  const requested = await client.waitForEvent((e) => e.event.type === 'member.requested');
  t.is(requested.event.type === 'member.requested' ? requested.event.member.userId : '', applicant!.userId);
  const approved = await client.command({ kind: 'member.approve', userId: applicant!.userId });
  t.is(approved.result.member.status, 'active');
});

test('R13: a notification announced for the user reaches their sockets, not anyone else', async (t) => {
  const [owner, member] = await people(2);
  const room = await createRoom(rooms, owner!, [member!]);
  const mine = await socket(room.id, member!);
  const theirs = await socket(room.id, owner!);
  const notification: Notification = {
    id: '42',
    userId: member!.userId,
    createdAt: Date.now(),
    readAt: null,
    kind: 'room.role_changed',
    roomId: room.id,
    roomName: 'Movie night',
    role: 'admin',
  };
  const subject = notificationSubject(bed.config.nats.subject_prefix, member!.userId);
  // The gateway subscribed when the socket started, on its own NATS connection: publish until seen (NATS is at-most-once).
  const publish = (): void => rooms.nc.publish(subject, JSON.stringify(notification));
  const repeat = setInterval(publish, 100);
  try {
    const got = await mine.waitFor((m): m is Extract<typeof m, { type: 'notification' }> => m.type === 'notification', 10_000, publish);
    t.deepEqual(got.notification, notification);
  } finally {
    clearInterval(repeat);
  }
  // The owner's sockets never get it.
  await theirs.ping();
  t.is(theirs.notifications.length, 0);
  t.true((await metric(bed, 'realtime_notification_subscriptions')) >= 1);
});

test.serial('R13: guests get no notification subscription; users one per user, whatever their sockets', async (t) => {
  const [owner] = await people(1);
  const guest = await bed.guest('Visitor');
  const room = await createRoom(rooms, owner!, [guest]);
  const before = await metric(bed, 'realtime_notification_subscriptions');
  const client = await socket(room.id, guest);
  t.is(client.snapshot?.view.me.role, 'guest');
  t.is(await metric(bed, 'realtime_notification_subscriptions'), before);
  await socket(room.id, owner!);
  await socket(room.id, owner!);
  t.is(await metric(bed, 'realtime_notification_subscriptions'), before + 1);
});
