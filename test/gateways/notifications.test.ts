import test from 'ava';
import pg from 'pg';
import { connect, type NatsConnection, type Subscription } from 'nats';
import type { UserCaller } from '../../accounts/model.js';
import { ActorClient } from '../../actors/runtime/client.js';
import { newRoomId, RoomClient } from '../../gateways/rooms/room-client.js';
import type { Notification } from '../../contracts/notifications.js';
import { notificationSubject } from '../../notifications/subjects.js';
import { withDeadline } from '../fixtures/deadline.js';
import { startGatewayBed, type GatewayBed, type Member } from './bed.js';

let bed: GatewayBed;
let nc: NatsConnection;
let rooms: RoomClient;

test.before(async () => {
  bed = await startGatewayBed('notifications');
  await bed.set('user', { enableGuest: true });
  nc = await connect({ servers: bed.config.nats.url });
  rooms = new RoomClient(new ActorClient(nc, bed.config.nats.subject_prefix));
});
test.after.always(async () => {
  await nc?.close();
  await bed?.close();
});

const callerOf = (member: Member): UserCaller => ({
  kind: 'user',
  userId: member.userId,
  sessionId: member.sessionId,
  username: member.username,
  displayName: member.username,
  role: 'user',
});

interface Inbox {
  notifications: Notification[];
  nextBefore: string | null;
  unread: number;
}

const inbox = (member: Member, query = '') => bed.call<Inbox>('GET', `/api/me/notifications${query}`, undefined, member.token);

/** Live announcements for one user, as a gateway receives them. */
function listen(member: Member): { next(): Promise<Notification>; sub: Subscription } {
  const sub = nc.subscribe(notificationSubject(bed.config.nats.subject_prefix, member.userId));
  const iterator = sub[Symbol.asyncIterator]();
  return {
    sub,
    next: () =>
      withDeadline(
        iterator.next().then((item) => {
          if (item.done) throw new Error('the notification subscription ended');
          return JSON.parse(new TextDecoder().decode(item.value.data)) as Notification;
        }),
        10_000,
        'a live notification',
      ),
  };
}

async function roomNeedingApproval(owner: Member, name = 'Film club'): Promise<string> {
  const id = newRoomId();
  await rooms.send(id, { kind: 'room.create', name, visibility: 'public', requireJoinApproval: true }, callerOf(owner));
  return id;
}

test('a decided join request lands in the inbox and is announced live', async (t) => {
  const [owner, member] = [await bed.signUp('owner'), await bed.signUp('member')];
  const roomId = await roomNeedingApproval(owner);
  await rooms.send(roomId, { kind: 'member.join' }, callerOf(member));
  const live = listen(member);
  await nc.flush();
  await rooms.send(roomId, { kind: 'member.approve', userId: member.userId }, callerOf(owner));

  const announced = await live.next();
  t.like(announced, { kind: 'join_request.decided', roomId, roomName: 'Film club', approved: true, userId: member.userId, readAt: null });
  const answer = await inbox(member);
  t.is(answer.status, 200);
  t.is(answer.body.unread, 1);
  t.deepEqual(answer.body.notifications, [announced]);
  live.sub.unsubscribe();
});

test('a rejected join request and a role change are reported to the member', async (t) => {
  const [owner, member, other] = [await bed.signUp('owner'), await bed.signUp('member'), await bed.signUp('other')];
  const roomId = await roomNeedingApproval(owner, 'Anime night');
  await rooms.send(roomId, { kind: 'member.join' }, callerOf(other));
  await rooms.send(roomId, { kind: 'member.reject', userId: other.userId }, callerOf(owner));
  t.like((await inbox(other)).body.notifications[0], { kind: 'join_request.decided', approved: false, roomName: 'Anime night' });

  await rooms.send(roomId, { kind: 'member.join' }, callerOf(member));
  await rooms.send(roomId, { kind: 'member.approve', userId: member.userId }, callerOf(owner));
  await rooms.send(roomId, { kind: 'member.setRole', userId: member.userId, role: 'admin' }, callerOf(owner));
  const { notifications } = (await inbox(member)).body;
  t.deepEqual(
    notifications.map((n) => n.kind),
    ['room.role_changed', 'join_request.decided'],
  );
  t.like(notifications[0], { kind: 'room.role_changed', role: 'admin', roomId });
});

test('a kind the user turned off is neither stored nor announced; preferences validate their keys', async (t) => {
  const [owner, member] = [await bed.signUp('owner'), await bed.signUp('member')];
  const defaults = await bed.call('GET', '/api/me/notification-preferences', undefined, member.token);
  t.deepEqual(defaults.body, { 'review.decided': true, 'join_request.decided': true, 'room.role_changed': true, 'chat.mention': true });
  const bad = await bed.call<{ code: string; issues: Array<{ key: string }> }>('PATCH', '/api/me/notification-preferences', { 'room.roleChanged': false }, member.token);
  t.is(bad.status, 400);
  t.is(bad.body.code, 'invalid_argument');
  t.deepEqual(bad.body.issues.map((issue) => issue.key), ['room.roleChanged']);
  const off = await bed.call('PATCH', '/api/me/notification-preferences', { 'room.role_changed': false }, member.token);
  t.deepEqual(off.body, { 'review.decided': true, 'join_request.decided': true, 'room.role_changed': false, 'chat.mention': true });

  const roomId = await roomNeedingApproval(owner);
  await rooms.send(roomId, { kind: 'member.join' }, callerOf(member));
  await rooms.send(roomId, { kind: 'member.approve', userId: member.userId }, callerOf(owner));
  await rooms.send(roomId, { kind: 'member.setRole', userId: member.userId, role: 'admin' }, callerOf(owner));
  t.deepEqual((await inbox(member)).body.notifications.map((n) => n.kind), ['join_request.decided']);
});

test.serial('a room review decision reaches the owner (serial: it flips a server-wide setting)', async (t) => {
  const owner = await bed.signUp('owner');
  await bed.set('room', { createRoomNeedReview: true });
  const roomId = newRoomId();
  try {
    await rooms.send(roomId, { kind: 'room.create', name: 'Under review', visibility: 'public' }, callerOf(owner));
  } finally {
    await bed.set('room', { createRoomNeedReview: false });
  }
  await rooms.sendAsService(roomId, { kind: 'room.review', approve: false }, 'test-reviewer');
  t.like((await inbox(owner)).body.notifications[0], { kind: 'review.decided', review: 'room', approved: false, roomId, roomName: 'Under review' });
});

test('guests have no inbox: deciding a guest join request stores nothing and fails nothing', async (t) => {
  const owner = await bed.signUp('owner');
  const roomId = await roomNeedingApproval(owner);
  const visitor = await bed.guest('Visitor');
  await rooms.send(roomId, { kind: 'member.join' }, { kind: 'guest', guestId: visitor.userId, sessionId: visitor.sessionId, displayName: 'Visitor' });
  const approved = await rooms.send(roomId, { kind: 'member.approve', userId: visitor.userId }, callerOf(owner));
  t.like(approved.result.member, { userId: visitor.userId, status: 'active', guest: true });
  const refused = await bed.call<{ code: string }>('GET', '/api/me/notifications', undefined, visitor.token);
  t.is(refused.status, 403);
});

test.serial('reading, paging and deleting the inbox; nobody touches another user’s notifications', async (t) => {
  const [owner, member, stranger] = [await bed.signUp('owner'), await bed.signUp('member'), await bed.signUp('stranger')];
  // Ids of this test's notifications straddle a power of ten (…98, …99, …100): the inbox must
  // order them as numbers, not as the decimal strings they are sent as.
  const pool = new pg.Pool({ connectionString: bed.databaseUrl, max: 1 });
  await pool.query(
    `SELECT setval('notifications_id_seq', GREATEST(last_value, power(10, ceil(log(GREATEST(last_value, 1) + 3)))::bigint - 2)) FROM notifications_id_seq`,
  );
  await pool.end();
  const roomId = await roomNeedingApproval(owner);
  await rooms.send(roomId, { kind: 'member.join' }, callerOf(member));
  await rooms.send(roomId, { kind: 'member.approve', userId: member.userId }, callerOf(owner));
  for (const role of ['admin', 'member', 'admin'] as const) {
    await rooms.send(roomId, { kind: 'member.setRole', userId: member.userId, role }, callerOf(owner));
  }
  const first = await inbox(member, '?limit=3');
  t.is(first.body.notifications.length, 3);
  t.is(first.body.unread, 4);
  t.truthy(first.body.nextBefore);
  const second = await inbox(member, `?limit=3&before=${first.body.nextBefore}`);
  t.deepEqual(second.body.notifications.map((n) => n.kind), ['join_request.decided']);
  t.is(second.body.nextBefore, null);

  const [newest] = first.body.notifications;
  t.is((await bed.call('POST', `/api/me/notifications/${newest!.id}/read`, undefined, stranger.token)).status, 404);
  t.is((await bed.call('DELETE', `/api/me/notifications/${newest!.id}`, undefined, stranger.token)).status, 404);
  t.is((await bed.call('POST', `/api/me/notifications/${newest!.id}/read`, undefined, member.token)).status, 204);
  const unreadOnly = await inbox(member, '?unread=true');
  t.is(unreadOnly.body.unread, 3);
  t.false(unreadOnly.body.notifications.some((n) => n.id === newest!.id));
  t.deepEqual((await bed.call('POST', '/api/me/notifications/read-all', undefined, member.token)).body, { marked: 3 });
  t.is((await bed.call('DELETE', `/api/me/notifications/${newest!.id}`, undefined, member.token)).status, 204);
  const after = await inbox(member);
  t.is(after.body.unread, 0);
  t.is(after.body.notifications.length, 3);
  const badId = await bed.call<{ issues: Array<{ key: string }> }>('POST', '/api/me/notifications/abc/read', undefined, member.token);
  t.is(badId.status, 400);
  t.deepEqual(badId.body.issues.map((issue) => issue.key), ['notificationId']);
});
