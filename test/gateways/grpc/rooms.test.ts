import * as grpc from '@grpc/grpc-js';
import test from 'ava';
import { randomUUID } from 'node:crypto';
import type { MemberRoomView } from '../../../actors/room/index.js';
import { actorSide, plain, memberMessage, roomInfoMessage } from './parity.js';
import { refused, startGrpcBed, type GrpcBed } from './fixtures.js';

let g: GrpcBed;
let actors: Awaited<ReturnType<typeof actorSide>>;
test.before(async () => {
  g = await startGrpcBed('grpc_rooms');
  actors = await actorSide(g.bed);
});
test.after.always(async () => {
  await actors?.close();
  await g?.close();
});

test('CreateRoom, GetRoom and UpdateRoom carry what the actor answers', async (t) => {
  const { member: owner, as } = await g.user('owner');
  const created = await as.rooms.CreateRoom({
    name: 'Parity night',
    password: 'let me in',
    visibility: 'ROOM_VISIBILITY_PUBLIC',
    requireJoinApproval: true,
    settings: { waitForAllReady: true, readyTimeoutMs: 5000, queueMode: 'QUEUE_MODE_REPEAT_ALL', permissionOverrides: { guest: { permissions: ['view_chat_history'] } } },
  });
  const roomId = created.room!.id;
  t.regex(roomId, /^[A-Za-z0-9_-]{22}$/);

  const actorView = (await actors.rooms.send(roomId, { kind: 'room.get' }, actors.callerOf(owner))).result as MemberRoomView;
  t.deepEqual(plain(created.room), roomInfoMessage({ ...actorView.room, updatedAt: created.room!.updatedAt }));
  t.like(created.room, { hasPassword: true, requireJoinApproval: true, waitForAllReady: true, readyTimeoutMs: 5000, queueMode: 'QUEUE_MODE_REPEAT_ALL', permissionOverrides: { guest: { permissions: ['view_chat_history'] }, admin: null } });

  const view = await as.rooms.GetRoom({ roomId });
  t.is(view.access, 'member');
  t.deepEqual(plain(view.member!.room), roomInfoMessage(actorView.room));
  t.deepEqual(plain(view.member!.members!.members), actorView.members!.map(memberMessage));
  t.like(view.member!.me, { userId: owner.userId, status: 'MEMBER_STATUS_ACTIVE', role: 'ROOM_ROLE_ADMIN', isOwner: true });
  t.deepEqual([...view.member!.me!.permissions].sort(), [...actorView.me.permissions].sort());
  t.deepEqual(view.member!.pendingMembers, { members: [] });
  t.deepEqual(view.member!.playlist, { items: [] });
  t.like(view.member!.playback, { playing: false, rate: 1, version: actorView.playback.version });
  t.is(view.member!.playback!.mediaId, undefined);
  t.is(view.member!.seq, actorView.seq);

  // Update: absent fields stay; an empty password removes it; reset returns a role to the default.
  const updated = await as.rooms.UpdateRoom({ roomId, name: 'Renamed', password: '', queueMode: 'QUEUE_MODE_SHUFFLE', permissionOverrides: { guest: { reset: true }, member: { set: { permissions: ['send_chat', 'view_chat_history'] } } } });
  t.like(updated.room, { name: 'Renamed', hasPassword: false, queueMode: 'QUEUE_MODE_SHUFFLE', requireJoinApproval: true, visibility: 'ROOM_VISIBILITY_PUBLIC', permissionOverrides: { guest: null, member: { permissions: ['send_chat', 'view_chat_history'] } } });
  const after = (await actors.rooms.send(roomId, { kind: 'room.get' }, actors.callerOf(owner))).result as MemberRoomView;
  t.deepEqual(plain(updated.room), roomInfoMessage(after.room));

  // A retried create with the client's room id answers the same room (idempotent by its creator).
  const again = await as.rooms.CreateRoom({ roomId, name: 'Renamed', visibility: 'ROOM_VISIBILITY_PUBLIC' });
  t.is(again.room!.id, roomId);

  // A visitor sees the preview only.
  const { as: visitor } = await g.user('visitor');
  const preview = await visitor.rooms.GetRoom({ roomId });
  t.is(preview.access, 'visitor');
  t.like(preview.visitor, { room: { id: roomId, name: 'Renamed', memberCount: 1, hasPassword: false }, me: { status: 'MEMBER_STATUS_NONE' } });
  t.is(preview.visitor!.me!.role, undefined);

  t.deepEqual(await as.rooms.DeleteRoom({ roomId }), { deleted: true });
  await refused(t, as.rooms.GetRoom({ roomId }), 'not_found', grpc.status.NOT_FOUND);
});

test('joining, approval, roles, kicks, bans and ownership through MemberService', async (t) => {
  const { member: owner, as } = await g.user('host');
  const { member: alice, as: asAlice } = await g.user('alice');
  const { member: bob, as: asBob } = await g.user('bob');
  const { room } = await as.rooms.CreateRoom({ name: 'Members', visibility: 'ROOM_VISIBILITY_HIDDEN', requireJoinApproval: true });
  const roomId = room!.id;

  const pending = await asAlice.rooms.JoinRoom({ roomId });
  t.like(pending, { status: 'MEMBER_STATUS_PENDING', member: { userId: alice.userId, status: 'MEMBER_STATUS_PENDING' } });
  await asBob.rooms.JoinRoom({ roomId });
  const lists = await as.members.ListMembers({ roomId });
  t.deepEqual(lists.pendingMembers!.members.map((m) => m.userId).sort(), [alice.userId, bob.userId].sort());
  // A pending member is refused what members may do.
  await refused(t, asAlice.members.ListMembers({ roomId }), 'forbidden', grpc.status.PERMISSION_DENIED);

  t.like(await as.members.Approve({ roomId, userId: alice.userId }), { member: { userId: alice.userId, status: 'MEMBER_STATUS_ACTIVE', role: 'ROOM_ROLE_MEMBER' } });
  t.deepEqual(await as.members.Reject({ roomId, userId: bob.userId }), { userId: bob.userId });
  t.like(await as.members.SetRole({ roomId, userId: alice.userId, role: 'ROOM_ROLE_ADMIN' }), { member: { role: 'ROOM_ROLE_ADMIN' } });
  const bad = await refused(t, as.members.SetRole({ roomId, userId: alice.userId, role: 'ROOM_ROLE_UNSPECIFIED' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(bad.issues[0]?.key, 'role');
  // Nobody acts on themselves.
  await refused(t, as.members.Kick({ roomId, userId: owner.userId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  // A member's own permissions, over gRPC and HTTP alike.
  t.like(await as.members.SetPermissions({ roomId, userId: alice.userId, grant: ['publish_livestream'], deny: ['vote'] }), {
    member: { userId: alice.userId, permissionOverride: { grant: ['publish_livestream'], deny: ['vote'] } },
  });
  const unknown = await refused(t, as.members.SetPermissions({ roomId, userId: alice.userId, grant: ['fly'], deny: [] }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(unknown.issues[0]?.key, 'grant');
  const overHttp = await g.bed.call<{ member: { permissionOverride: unknown } }>('PUT', `/api/rooms/${roomId}/members/${alice.userId}/permissions`, { grant: [], deny: ['vote'] }, owner.token);
  t.is(overHttp.status, 200, JSON.stringify(overHttp.body));
  t.deepEqual(overHttp.body.member.permissionOverride, { grant: [], deny: ['vote'] });

  const listed = await asAlice.members.ListMembers({ roomId });
  const actorView = (await actors.rooms.send(roomId, { kind: 'room.get' }, actors.callerOf(alice))).result as MemberRoomView;
  t.deepEqual(plain(listed.members), actorView.members!.map(memberMessage));

  t.like(await as.members.Ban({ roomId, userId: bob.userId }), { member: { userId: bob.userId, status: 'MEMBER_STATUS_BANNED' } });
  await refused(t, asBob.rooms.JoinRoom({ roomId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  t.deepEqual(await as.members.Unban({ roomId, userId: bob.userId }), { userId: bob.userId });
  t.deepEqual(await as.members.Kick({ roomId, userId: alice.userId }), { userId: alice.userId });
  t.deepEqual(await asAlice.rooms.LeaveRoom({ roomId }), { left: false });

  // Ownership goes to an active member; the old owner stays an admin.
  await asBob.rooms.JoinRoom({ roomId });
  await as.members.Approve({ roomId, userId: bob.userId });
  const transferred = await as.rooms.TransferOwnership({ roomId, userId: bob.userId });
  t.is(transferred.room!.ownerId, bob.userId);
  await refused(t, as.rooms.DeleteRoom({ roomId }), 'forbidden', grpc.status.PERMISSION_DENIED);
  t.deepEqual(await as.rooms.LeaveRoom({ roomId }), { left: true });
});

test('ListPublicRooms: only active public rooms, searched by name, paged without overlap', async (t) => {
  const { as } = await g.user('lister');
  const tag = `zz${randomUUID().slice(0, 6)}`;
  const made: string[] = [];
  for (const name of [`${tag} one`, `${tag} two`, `${tag} three`, `${tag} 100%_off`]) {
    made.push((await as.rooms.CreateRoom({ name, visibility: 'ROOM_VISIBILITY_PUBLIC' })).room!.id);
  }
  await as.rooms.CreateRoom({ name: `${tag} hidden`, visibility: 'ROOM_VISIBILITY_HIDDEN' });

  const first = await as.rooms.ListPublicRooms({ query: tag.toUpperCase(), limit: 3 });
  t.is(first.rooms.length, 3);
  t.truthy(first.nextCursor);
  const second = await as.rooms.ListPublicRooms({ query: tag, limit: 3, cursor: first.nextCursor });
  t.is(second.rooms.length, 1);
  t.is(second.nextCursor, '');
  const ids = [...first.rooms, ...second.rooms].map((room) => room.id);
  t.deepEqual([...ids].sort(), [...made].sort());
  // Newest first.
  t.deepEqual(ids, [...made].reverse());
  t.like(first.rooms[0], { name: `${tag} 100%_off`, memberCount: 1, hasPassword: false, requireJoinApproval: false });

  // Punctuation in the query is not syntax: only its words count.
  const literal = await as.rooms.ListPublicRooms({ query: `${tag} 100%_` });
  t.deepEqual(literal.rooms.map((room) => room.id), [made[3]]);
  const bad = await refused(t, as.rooms.ListPublicRooms({ cursor: 'not-a-token' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(bad.issues[0]?.key, 'cursor');
  await refused(t, as.rooms.ListPublicRooms({ limit: 1000 }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
});

test.serial('refusals map to their status and name the field (serial: it lowers server.maxRoomsPerUser for everyone)', async (t) => {
  const { as } = await g.user('refusals');
  const noRoom = await refused(t, as.rooms.GetRoom({ roomId: 'AAAAAAAAAAAAAAAAAAAAAA' }), 'not_found', grpc.status.NOT_FOUND);
  t.regex(noRoom.message, /room/i);
  t.is((await refused(t, as.rooms.GetRoom({ roomId: '' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'roomId');
  t.is((await refused(t, as.rooms.GetRoom({ roomId: 'has spaces' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'roomId');
  t.is((await refused(t, as.rooms.CreateRoom({ name: 'x' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'visibility');
  t.is((await refused(t, as.rooms.CreateRoom({ name: '', visibility: 'ROOM_VISIBILITY_PUBLIC' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'name');
  const timeout = await refused(t, as.rooms.CreateRoom({ name: 'x', visibility: 'ROOM_VISIBILITY_PUBLIC', settings: { readyTimeoutMs: 5 } }), 'invalid_argument', grpc.status.INVALID_ARGUMENT);
  t.is(timeout.issues[0]?.key, 'settings.readyTimeoutMs');
  t.is((await refused(t, as.rooms.CreateRoom({ roomId: 'short', name: 'x', visibility: 'ROOM_VISIBILITY_PUBLIC' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key, 'roomId');
  t.is(
    (await refused(t, as.rooms.GetRoom({ roomId: 'AAAAAAAAAAAAAAAAAAAAAA' }, { commandId: 'has spaces' }), 'invalid_argument', grpc.status.INVALID_ARGUMENT)).issues[0]?.key,
    'svc-command-id',
  );

  const { as: guest } = await g.guest('Visitor');
  await refused(t, guest.rooms.CreateRoom({ name: 'Guest room', visibility: 'ROOM_VISIBILITY_PUBLIC' }), 'forbidden', grpc.status.PERMISSION_DENIED);

  // A spent budget is RESOURCE_EXHAUSTED (limit_exceeded).
  const { as: quota } = await g.user('quota');
  await g.bed.set('server', { maxRoomsPerUser: 1 });
  try {
    await quota.rooms.CreateRoom({ name: 'the one', visibility: 'ROOM_VISIBILITY_HIDDEN' });
    await refused(t, quota.rooms.CreateRoom({ name: 'one too many', visibility: 'ROOM_VISIBILITY_HIDDEN' }), 'limit_exceeded', grpc.status.RESOURCE_EXHAUSTED);
  } finally {
    await g.bed.set('server', { maxRoomsPerUser: 10 });
  }
});
