/**
 * Member endpoints over HTTP: listing (by permission), roles, kicks, bans, join requests and
 * per-room permission overrides, each with its refusals. Answers are checked against
 * /api/openapi.json by the bed.
 */
import test from 'ava';
import { startGatewayBed, type GatewayBed, type Member } from '../bed.js';

let bed: GatewayBed;
let owner: Member;

test.before(async () => {
  bed = await startGatewayBed('http-members');
  await bed.set('server', { maxRoomsPerUser: 100 });
  owner = await bed.signUp('owner');
});
test.after.always(async () => {
  await bed?.close();
});

interface MemberView {
  userId: string;
  role: string;
  status: string;
}

async function roomWith(...members: Member[]): Promise<string> {
  const created = await bed.call<{ room: { id: string } }>('POST', '/api/rooms', { name: 'Members' }, owner.token);
  const roomId = created.body.room.id;
  for (const member of members) {
    const joined = await bed.call('POST', `/api/rooms/${roomId}/join`, {}, member.token);
    if (joined.status !== 200) throw new Error(`join failed: ${JSON.stringify(joined.body)}`);
  }
  return roomId;
}

test('members list the room; visitors and pending users cannot; bans and requests need manage_members', async (t) => {
  const alice = await bed.signUp('alice');
  const stranger = await bed.signUp('stranger');
  const roomId = await roomWith(alice);

  const list = await bed.call<{ members: MemberView[] }>('GET', `/api/rooms/${roomId}/members`, undefined, alice.token);
  t.is(list.status, 200);
  t.deepEqual(list.body.members.map((member) => member.userId).sort(), [owner.userId, alice.userId].sort());

  const visitor = await bed.call<{ code: string; message: string }>('GET', `/api/rooms/${roomId}/members`, undefined, stranger.token);
  t.is(visitor.status, 403);
  t.regex(visitor.body.message, /join the room first/);
  t.is((await bed.call('GET', `/api/rooms/${roomId}/bans`, undefined, alice.token)).status, 403);
  t.is((await bed.call('GET', `/api/rooms/${roomId}/join-requests`, undefined, alice.token)).status, 403);
  t.is((await bed.call<{ members: unknown[] }>('GET', `/api/rooms/${roomId}/bans`, undefined, owner.token)).body.members.length, 0);
  t.is((await bed.call('GET', '/api/rooms/nosuchroom/members', undefined, owner.token)).status, 404);
});

test('roles: the owner makes an admin; a member cannot; a guest member stays a guest', async (t) => {
  const bob = await bed.signUp('bob');
  const carol = await bed.signUp('carol');
  const guest = await bed.guest('Gus');
  const roomId = await roomWith(bob, carol, guest);

  t.is((await bed.call('PUT', `/api/rooms/${roomId}/members/${carol.userId}/role`, { role: 'admin' }, bob.token)).status, 403);
  const promoted = await bed.call<{ member: MemberView }>('PUT', `/api/rooms/${roomId}/members/${bob.userId}/role`, { role: 'admin' }, owner.token);
  t.is(promoted.status, 200);
  t.is(promoted.body.member.role, 'admin');

  const guestUp = await bed.call('PUT', `/api/rooms/${roomId}/members/${encodeURIComponent(guest.userId)}/role`, { role: 'member' }, owner.token);
  t.is(guestUp.status, 403);
  const badRole = await bed.call<{ issues: Array<{ key: string }> }>('PUT', `/api/rooms/${roomId}/members/${carol.userId}/role`, { role: 'owner' }, owner.token);
  t.is(badRole.status, 400);
  t.is(badRole.body.issues[0]?.key, 'role');
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/members/nobody/role`, { role: 'member' }, owner.token)).status, 404);
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/members/${owner.userId}/role`, { role: 'member' }, bob.token)).status, 403);
});

test('kick removes a member who may come back; ban keeps them out until unbanned', async (t) => {
  const dave = await bed.signUp('dave');
  const erin = await bed.signUp('erin');
  const roomId = await roomWith(dave, erin);

  t.is((await bed.call('POST', `/api/rooms/${roomId}/members/${erin.userId}/kick`, undefined, dave.token)).status, 403);
  const kicked = await bed.call<{ userId: string }>('POST', `/api/rooms/${roomId}/members/${erin.userId}/kick`, undefined, owner.token);
  t.is(kicked.status, 200);
  t.is(kicked.body.userId, erin.userId);
  t.is((await bed.call<{ access: string }>('GET', `/api/rooms/${roomId}`, undefined, erin.token)).body.access, 'visitor');
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, erin.token)).status, 200);

  const banned = await bed.call<{ member: MemberView }>('PUT', `/api/rooms/${roomId}/bans/${erin.userId}`, undefined, owner.token);
  t.is(banned.status, 200);
  t.is(banned.body.member.status, 'banned');
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, erin.token)).status, 403);
  const bans = await bed.call<{ members: MemberView[] }>('GET', `/api/rooms/${roomId}/bans`, undefined, owner.token);
  t.deepEqual(bans.body.members.map((member) => member.userId), [erin.userId]);

  // A ban of someone who never joined is a ban too.
  const never = await bed.signUp('never');
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/bans/${never.userId}`, undefined, owner.token)).status, 200);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, never.token)).status, 403);

  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/bans/${erin.userId}`, undefined, dave.token)).status, 403);
  const unbanned = await bed.call<{ userId: string }>('DELETE', `/api/rooms/${roomId}/bans/${erin.userId}`, undefined, owner.token);
  t.is(unbanned.status, 200);
  t.is((await bed.call('DELETE', `/api/rooms/${roomId}/bans/${erin.userId}`, undefined, owner.token)).status, 404);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join`, {}, erin.token)).status, 200);
  t.is((await bed.call('PUT', `/api/rooms/${roomId}/bans/${owner.userId}`, undefined, owner.token)).status, 403);
});

test('join requests wait for approval; approve admits, reject turns down', async (t) => {
  const frank = await bed.signUp('frank');
  const grace = await bed.signUp('grace');
  const roomId = await roomWith();
  await bed.call('PATCH', `/api/rooms/${roomId}`, { requireJoinApproval: true }, owner.token);

  const asked = await bed.call<{ status: string }>('POST', `/api/rooms/${roomId}/join`, {}, frank.token);
  t.is(asked.body.status, 'pending');
  await bed.call('POST', `/api/rooms/${roomId}/join`, {}, grace.token);
  const pendingView = await bed.call<{ message: string }>('GET', `/api/rooms/${roomId}/members`, undefined, frank.token);
  t.is(pendingView.status, 403);
  t.regex(pendingView.body.message, /waiting for approval/);

  const requests = await bed.call<{ members: MemberView[] }>('GET', `/api/rooms/${roomId}/join-requests`, undefined, owner.token);
  t.deepEqual(requests.body.members.map((member) => member.userId).sort(), [frank.userId, grace.userId].sort());

  const approved = await bed.call<{ member: MemberView }>('POST', `/api/rooms/${roomId}/join-requests/${frank.userId}/approve`, undefined, owner.token);
  t.is(approved.status, 200);
  t.is(approved.body.member.status, 'active');
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join-requests/${grace.userId}/approve`, undefined, frank.token)).status, 403);
  const rejected = await bed.call<{ userId: string }>('POST', `/api/rooms/${roomId}/join-requests/${grace.userId}/reject`, undefined, owner.token);
  t.is(rejected.status, 200);
  t.is((await bed.call('POST', `/api/rooms/${roomId}/join-requests/${grace.userId}/approve`, undefined, owner.token)).status, 404);
  const after = await bed.call<{ members: MemberView[] }>('GET', `/api/rooms/${roomId}/join-requests`, undefined, owner.token);
  t.deepEqual(after.body.members, []);
});

test('per-room permission overrides replace the defaults for a role and can be reset', async (t) => {
  const hank = await bed.signUp('hank');
  const roomId = await roomWith(hank);

  const before = await bed.call<{ overrides: Record<string, string[]>; defaults: Record<string, string[]> }>('GET', `/api/rooms/${roomId}/permissions`, undefined, hank.token);
  t.is(before.status, 200);
  t.deepEqual(before.body.overrides, {});
  t.true(before.body.defaults.member!.includes('send_chat'));

  t.is((await bed.call('PATCH', `/api/rooms/${roomId}/permissions`, { member: ['view_chat_history'] }, hank.token)).status, 403);
  const set = await bed.call<{ overrides: Record<string, string[]> }>('PATCH', `/api/rooms/${roomId}/permissions`, { member: ['view_chat_history', 'view_member_list'] }, owner.token);
  t.is(set.status, 200);
  t.deepEqual(set.body.overrides.member, ['view_chat_history', 'view_member_list']);
  const chat = await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'can I?' }, hank.token);
  t.is(chat.status, 403);

  const ceiling = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${roomId}/permissions`, { guest: ['send_chat'] }, owner.token);
  t.is(ceiling.status, 400);
  t.is(ceiling.body.issues[0]?.key, 'guest.0', 'the refusal names the entry sent');
  const unknown = await bed.call<{ issues: Array<{ key: string }> }>('PATCH', `/api/rooms/${roomId}/permissions`, { member: ['fly'] }, owner.token);
  t.is(unknown.status, 400);
  t.is(unknown.body.issues[0]?.key, 'member.0');
  // Neither refused change was written.
  const still = await bed.call<{ overrides: Record<string, string[]> }>('GET', `/api/rooms/${roomId}/permissions`, undefined, owner.token);
  t.deepEqual(still.body.overrides, { member: ['view_chat_history', 'view_member_list'] });

  const reset = await bed.call<{ overrides: Record<string, string[]> }>('PATCH', `/api/rooms/${roomId}/permissions`, { member: null }, owner.token);
  t.deepEqual(reset.body.overrides, {});
  t.is((await bed.call('POST', `/api/rooms/${roomId}/chat`, { text: 'now I can' }, hank.token)).status, 201);
});
