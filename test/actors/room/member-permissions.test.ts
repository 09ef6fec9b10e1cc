/**
 * One member's own grants and denials on top of their role (member.setPermissions): what they
 * change for that member only, who may set them, the rules on the lists, and that they are
 * stored with the membership.
 */
import test from 'ava';
import { RoomTestBed, addMember, guest, media, rejects, uid, user } from './fixtures.js';
import type { AppError } from '../../../errors/app-error.js';

let bed: RoomTestBed;

test.before(async () => {
  bed = await RoomTestBed.start('room_member_permissions');
});

test.after.always(async () => {
  await bed?.close();
});

async function party() {
  const owner = user(uid('owner'), 'Olive');
  const admin = user(uid('admin'), 'Ada');
  const bob = user(uid('bob'), 'Bob');
  const carol = user(uid('carol'), 'Carol');
  // Members may chat but not control playback; admins may everything the defaults give them.
  const room = await bed.createRoom(owner, { settings: { permissionOverrides: { member: ['send_chat', 'view_chat_history', 'view_member_list', 'view_media_resources'] } } });
  for (const caller of [admin, bob, carol]) await addMember(room, caller);
  await room.send(owner, { kind: 'member.setRole', userId: admin.userId, role: 'admin' });
  const { item } = await room.send(owner, { kind: 'playlist.push', ...media('Film') });
  await room.send(owner, { kind: 'playlist.setCurrent', mediaId: item.id });
  return { room, owner, admin, bob, carol, film: item };
}

const keys = (err: AppError) => err.issues.map((issue) => issue.key);

test('a grant gives one member a permission beyond their role, a denial takes one away; the others of the role keep the role', async (t) => {
  const { room, owner, bob, carol } = await party();
  await rejects(t, room.send(bob, { kind: 'playback.play' }), 'forbidden', /control_playback/);

  const { member } = await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['control_playback'], deny: ['send_chat'] });
  t.deepEqual(member.permissionOverride, { grant: ['control_playback'], deny: ['send_chat'] });
  t.like(room.lastEvent('member.updated'), { member: { userId: bob.userId, permissionOverride: { grant: ['control_playback'], deny: ['send_chat'] } } });

  await t.notThrowsAsync(room.send(bob, { kind: 'playback.play' }));
  await rejects(t, room.send(bob, { kind: 'chat.send', text: 'hi' }), 'forbidden', /send_chat/);
  await rejects(t, room.send(carol, { kind: 'playback.pause' }), 'forbidden', /control_playback/);
  await t.notThrowsAsync(room.send(carol, { kind: 'chat.send', text: 'still here' }));

  const view = await room.send(bob, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error('bob is a member');
  t.true(view.me.permissions.includes('control_playback'));
  t.false(view.me.permissions.includes('send_chat'));
  t.deepEqual(view.me.permissionOverride, { grant: ['control_playback'], deny: ['send_chat'] });
});

test('both lists empty return the member to the role alone; the override outlives a new activation and goes with the membership', async (t) => {
  const { room, owner, bob } = await party();
  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['control_playback'], deny: [] });

  room.abandon();
  const again = await bed.activate(room.id);
  await t.notThrowsAsync(again.send(bob, { kind: 'playback.play' }), 'the grant was stored');

  const cleared = await again.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: [] });
  t.is(cleared.member.permissionOverride, null);
  await rejects(t, again.send(bob, { kind: 'playback.pause' }), 'forbidden', /control_playback/);

  await again.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['control_playback'], deny: [] });
  await again.send(bob, { kind: 'member.leave' });
  await addMember(again, bob);
  await rejects(t, again.send(bob, { kind: 'playback.pause' }), 'forbidden', /control_playback/);
});

test('the lists are checked as a whole: unknown names, administration for a member, above the guest ceiling, one name in both; nothing changes', async (t) => {
  const { room, owner, bob } = await party();
  const visitor = guest(uid('guest'));
  await addMember(room, visitor);

  t.deepEqual(keys(await rejects(t, room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['fly'], deny: [] }), 'invalid_argument', /unknown permission "fly"/)), ['grant']);
  t.deepEqual(keys(await rejects(t, room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['manage_members'], deny: [] }), 'invalid_argument', /admin role/)), ['grant']);
  t.deepEqual(keys(await rejects(t, room.send(owner, { kind: 'member.setPermissions', userId: visitor.userId, grant: ['control_playback'], deny: [] }), 'invalid_argument', /guest ceiling/)), ['grant']);
  t.deepEqual(keys(await rejects(t, room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['vote'], deny: ['vote'] }), 'invalid_argument', /both granted and denied/)), ['deny']);
  const view = await room.send(owner, { kind: 'room.get' });
  if (view.access !== 'member') throw new Error('the owner is a member');
  t.is(view.members?.find((m) => m.userId === bob.userId)?.permissionOverride, null);

  // Within the ceiling a guest may be given more: use_webrtc is a guest permission.
  const { member } = await room.send(owner, { kind: 'member.setPermissions', userId: visitor.userId, grant: ['use_webrtc'], deny: [] });
  t.deepEqual(member.permissionOverride, { grant: ['use_webrtc'], deny: [] });
});

test('who may: manage_members; never on the owner or oneself; admins only by the owner; others only with what they hold', async (t) => {
  const { room, owner, admin, bob, carol } = await party();
  await rejects(t, room.send(bob, { kind: 'member.setPermissions', userId: carol.userId, grant: [], deny: ['send_chat'] }), 'forbidden', /manage_members/);
  await rejects(t, room.send(admin, { kind: 'member.setPermissions', userId: owner.userId, grant: [], deny: ['send_chat'] }), 'forbidden', /room owner/);
  await rejects(t, room.send(admin, { kind: 'member.setPermissions', userId: admin.userId, grant: [], deny: ['vote'] }), 'forbidden', /yourself/);
  await rejects(t, room.send(admin, { kind: 'member.setPermissions', userId: 'nobody', grant: [], deny: [] }), 'not_found');

  // The owner takes control_playback from the admin, who then cannot hand it to a member.
  await room.send(owner, { kind: 'member.setPermissions', userId: admin.userId, grant: [], deny: ['control_playback'] });
  await rejects(t, room.send(admin, { kind: 'playback.play' }), 'forbidden', /control_playback/);
  await rejects(t, room.send(admin, { kind: 'member.setPermissions', userId: bob.userId, grant: ['control_playback'], deny: [] }), 'forbidden', /you lack control_playback/);
  // What the admin holds they may give and take.
  const { member } = await room.send(admin, { kind: 'member.setPermissions', userId: bob.userId, grant: ['create_media_resource'], deny: ['send_chat'] });
  t.deepEqual(member.permissionOverride, { grant: ['create_media_resource'], deny: ['send_chat'] });
  // And an admin cannot act on another admin, even with permissions they hold.
  const second = user(uid('admin2'));
  await addMember(room, second);
  await room.send(owner, { kind: 'member.setRole', userId: second.userId, role: 'admin' });
  await rejects(t, room.send(admin, { kind: 'member.setPermissions', userId: second.userId, grant: [], deny: ['vote'] }), 'forbidden', /only the room owner/);
});

test('a granted vote counts towards a vote-skip and a denied one stops counting, told to everyone at once', async (t) => {
  const { room, owner, bob, film: first } = await party();
  await room.send(owner, { kind: 'playlist.push', ...media('Next') });
  await room.send(owner, { kind: 'room.update', voteSkipPercent: 100 });
  await room.send(owner, { kind: 'presence.enter', connectionId: 'c-owner' });
  await room.send(bob, { kind: 'presence.enter', connectionId: 'c-bob' });
  await rejects(t, room.send(bob, { kind: 'playback.voteSkip', mediaId: first.id, vote: true }), 'forbidden', /vote/);

  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: ['vote'], deny: [] });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 0, needed: 2 } }, 'bob counts now');
  const voted = await room.send(owner, { kind: 'playback.voteSkip', mediaId: first.id, vote: true });
  t.false(voted.skipped);
  t.like(voted.voteSkip, { votes: 1, needed: 2 });

  await room.send(owner, { kind: 'member.setPermissions', userId: bob.userId, grant: [], deny: ['vote'] });
  t.like(room.lastEvent('vote.skip'), { voteSkip: { votes: 1, needed: 1 } }, 'bob no longer counts');
});
