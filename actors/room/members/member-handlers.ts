/**
 * Membership (durable: join, approval, leave, kick, ban, roles). What follows from a member
 * joining, leaving or changing (voice seats, the vote-skip count, the ready wait) is the other
 * parts' hooks, which the core runs (`memberJoined`, `memberRemoved`, `memberChanged`).
 *
 * Rules beyond the permission names: nobody can kick, ban or re-role the owner; only the
 * owner can promote to admin or act on an admin; a member who joined as a guest holds the
 * guest role only.
 */
import { AppError } from '../../../errors/index.js';
import type { Notification, NotificationPayload } from '../../../contracts/notifications.js';
import { recordNotification } from '../../../notifications/index.js';
import { banPage } from './member-pages.js';
import { namedOneByOne } from './headcount.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { Access, RoomCore, Turn } from '../core.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { checkBanCap, checkJoinRequestCap } from './member-caps.js';
import type { MemberRecord } from '../records.js';
import { verifyRoomPassword } from '../password.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { deleteMember, upsertMember } from '../room-rows.js';
import { displayName } from '../validate.js';
import { memberView } from '../views.js';

export async function joinRoom(core: RoomCore, command: RoomCommandOf<'member.join'>, turn: Turn): Promise<RoomResults['member.join']> {
  const { access } = turn;
  if (access.service) throw new AppError('forbidden', 'a service caller does not join rooms');
  const existing = access.member;
  if (existing?.status === 'banned') throw new AppError('forbidden', 'you are banned from this room');
  if (existing) return { status: existing.status, member: memberView(core, existing) };

  const room = core.current;
  if (room.passwordHash !== null) {
    if (command.password === undefined || command.password === '') {
      throw AppError.invalid([{ key: 'password', message: 'this room requires a password' }]);
    }
    if (!(await verifyRoomPassword(command.password, room.passwordHash))) {
      // Named as the password field's issue too, so a form shows it at the field.
      throw new AppError('forbidden', 'wrong room password', [{ key: 'password', message: 'this is not the room\'s password' }]);
    }
  }
  const max = core.deps.settings.get('server.maxMembersPerRoom');
  if (core.seatCount() >= max) {
    throw new AppError(
      'limit_exceeded',
      `this room is full: it has room for ${max} ${max === 1 ? 'person' : 'people'}, members and join requests together (server.maxMembersPerRoom = ${max})`,
    );
  }
  if (room.options.requireJoinApproval) checkJoinRequestCap(core.members);
  const member: MemberRecord = {
    userId: access.userId,
    name: displayName(access.name, access.userId),
    role: access.guest ? 'guest' : 'member',
    status: room.options.requireJoinApproval ? 'pending' : 'active',
    guest: access.guest,
    joinedAt: turn.now,
  };
  const result = await core.commit(turn, 'add the member', async (client) => {
    await upsertMember(client, core.id, member);
    return { status: member.status as 'active' | 'pending', member: memberView(core, member) };
  });
  core.members.set(member.userId, member);
  const view = result.member;
  // A crowd's plain member joining is counted (headcount.ts), not told to everyone.
  if (member.status === 'pending') core.publish({ type: 'member.requested', member: view });
  else if (namedOneByOne(core, member)) core.publish({ type: 'member.joined', member: view });
  if (member.status === 'active') await core.memberJoined(member);
  return result;
}

export async function leaveRoom(core: RoomCore, _command: RoomCommandOf<'member.leave'>, turn: Turn): Promise<RoomResults['member.leave']> {
  const { access } = turn;
  if (access.isOwner) {
    throw new AppError('forbidden', 'the owner cannot leave the room; transfer ownership or delete the room');
  }
  const member = access.member;
  // A ban outlives leaving; a non-member leaving is a repeat of an earlier leave.
  if (!member || member.status === 'banned') return { left: false };
  const result = await core.commit(turn, 'remove the member', async (client) => {
    await deleteMember(client, core.id, member.userId);
    return { left: true };
  });
  // Their own connections learn it (their watch ends); in a crowd, nobody else.
  const quiet = !namedOneByOne(core, member);
  core.members.delete(member.userId);
  core.publish({ type: 'member.left', userId: member.userId, reason: 'left', by: member.userId, ...(quiet ? { quiet: true as const } : {}) });
  await core.memberRemoved(member.userId, 'left');
  return result;
}

function pendingMember(core: RoomCore, userId: string): MemberRecord {
  const member = core.members.get(userId);
  if (!member || member.status !== 'pending') throw new AppError('not_found', `${userId} has no join request in this room`);
  return member;
}

export async function approveMember(
  core: RoomCore,
  command: RoomCommandOf<'member.approve'>,
  turn: Turn,
): Promise<RoomResults['member.approve']> {
  core.require(turn.access, 'manage_members', 'approving join requests');
  const member: MemberRecord = { ...pendingMember(core, command.userId), status: 'active', joinedAt: turn.now };
  let note: Notification | undefined;
  const result = await core.commit(turn, 'approve the member', async (client) => {
    await upsertMember(client, core.id, member);
    if (!member.guest) note = await recordNotification(client, member.userId, joinDecided(core, true));
    return { member: memberView(core, member) };
  });
  core.members.set(member.userId, member);
  core.publish({ type: 'member.joined', member: result.member });
  if (note) core.deps.notifications?.publish(note);
  await core.memberJoined(member);
  return result;
}

export async function rejectMember(core: RoomCore, command: RoomCommandOf<'member.reject'>, turn: Turn): Promise<RoomResults['member.reject']> {
  core.require(turn.access, 'manage_members', 'rejecting join requests');
  const member = pendingMember(core, command.userId);
  let note: Notification | undefined;
  const result = await core.commit(turn, 'reject the member', async (client) => {
    await deleteMember(client, core.id, member.userId);
    if (!member.guest) note = await recordNotification(client, member.userId, joinDecided(core, false));
    return { userId: member.userId };
  });
  core.members.delete(member.userId);
  core.publish({ type: 'member.left', userId: member.userId, reason: 'rejected', by: turn.access.userId });
  if (note) core.deps.notifications?.publish(note);
  await core.memberRemoved(member.userId, 'rejected');
  return result;
}

/** Who may act on `target` at all: never the owner, never oneself, admins only by the owner. */
export function checkAuthorityOver(core: RoomCore, access: Access, targetId: string, target: MemberRecord | undefined, action: string): void {
  if (core.current.ownerId === targetId) throw new AppError('forbidden', `nobody can ${action} the room owner`);
  if (targetId === access.userId) throw new AppError('forbidden', `you cannot ${action} yourself`);
  const targetIsAdmin = target?.status === 'active' && target.role === 'admin' && !target.guest;
  if (targetIsAdmin && !access.isOwner && !access.service) {
    throw new AppError('forbidden', `only the room owner can ${action} an admin`);
  }
}

export async function kickMember(core: RoomCore, command: RoomCommandOf<'member.kick'>, turn: Turn): Promise<RoomResults['member.kick']> {
  const { access } = turn;
  core.require(access, 'manage_members', 'kicking members');
  const target = core.members.get(command.userId);
  if (!target || target.status === 'banned') throw new AppError('not_found', `${command.userId} is not a member of this room`);
  checkAuthorityOver(core, access, command.userId, target, 'kick');
  const result = await core.commit(turn, 'kick the member', async (client) => {
    await deleteMember(client, core.id, target.userId);
    return { userId: target.userId };
  });
  core.members.delete(target.userId);
  core.publish({ type: 'member.left', userId: target.userId, reason: 'kicked', by: access.userId });
  await core.memberRemoved(target.userId, 'kicked');
  return result;
}

/** Bans a member or any user id (a ban can come before a first visit). Banning twice is a no-op. */
export async function banMember(core: RoomCore, command: RoomCommandOf<'member.ban'>, turn: Turn): Promise<RoomResults['member.ban']> {
  const { access } = turn;
  core.require(access, 'manage_members', 'banning users');
  const target = core.members.get(command.userId);
  checkAuthorityOver(core, access, command.userId, target, 'ban');
  if (target?.status === 'banned') return { member: memberView(core, target) };
  checkBanCap(core.members);
  const banned: MemberRecord = target
    ? { ...target, status: 'banned' }
    : { userId: command.userId, name: displayName(undefined, command.userId), role: 'member', status: 'banned', guest: false, joinedAt: turn.now };
  const result = await core.commit(turn, 'ban the user', async (client) => {
    await upsertMember(client, core.id, banned);
    return { member: memberView(core, banned) };
  });
  core.members.set(banned.userId, banned);
  if (target) core.publish({ type: 'member.left', userId: banned.userId, reason: 'banned', by: access.userId });
  core.publish({ type: 'member.banned', member: result.member, by: access.userId });
  await core.memberRemoved(banned.userId, 'banned');
  return result;
}

/** The bans a page at a time (`room.get` carries only the first page). */
export function listBans(core: RoomCore, command: RoomCommandOf<'member.bans'>, turn: Turn): Promise<RoomResults['member.bans']> {
  core.require(turn.access, 'manage_members', 'seeing bans');
  const page = banPage(core.members, command.limit ?? ROOM_LIMITS.banPageDefaultLimit, command.after);
  return Promise.resolve({ members: page.members.map((ban) => memberView(core, ban)), nextAfter: page.nextAfter, total: page.total });
}

export async function unbanMember(core: RoomCore, command: RoomCommandOf<'member.unban'>, turn: Turn): Promise<RoomResults['member.unban']> {
  core.require(turn.access, 'manage_members', 'lifting bans');
  const target = core.members.get(command.userId);
  if (!target || target.status !== 'banned') throw new AppError('not_found', `${command.userId} is not banned from this room`);
  const result = await core.commit(turn, 'lift the ban', async (client) => {
    await deleteMember(client, core.id, target.userId);
    return { userId: target.userId };
  });
  core.members.delete(target.userId);
  core.publish({ type: 'member.unbanned', userId: target.userId, by: turn.access.userId });
  return result;
}

export async function setMemberRole(core: RoomCore, command: RoomCommandOf<'member.setRole'>, turn: Turn): Promise<RoomResults['member.setRole']> {
  const { access } = turn;
  core.require(access, 'manage_members', 'changing roles');
  const target = core.members.get(command.userId);
  if (!target || target.status !== 'active') throw new AppError('not_found', `${command.userId} is not an active member of this room`);
  checkAuthorityOver(core, access, command.userId, target, 'change the role of');
  if (command.role === 'admin' && !access.isOwner && !access.service) {
    throw new AppError('forbidden', 'only the room owner can make someone an admin');
  }
  if (target.guest && command.role !== 'guest') {
    throw new AppError('forbidden', `${target.userId} joined as a guest and can only hold the guest role`);
  }
  if (target.role === command.role) return { member: memberView(core, target) };
  const updated: MemberRecord = { ...target, role: command.role };
  let note: Notification | undefined;
  const result = await core.commit(turn, 'change the role', async (client) => {
    await upsertMember(client, core.id, updated);
    if (!updated.guest) {
      note = await recordNotification(client, updated.userId, { kind: 'room.role_changed', roomId: core.id, roomName: core.current.name, role: updated.role });
    }
    return { member: memberView(core, updated) };
  });
  core.members.set(updated.userId, updated);
  core.publish({ type: 'member.updated', member: result.member });
  // A role without use_webrtc ends their voice seat, one without vote changes the vote-skip count.
  await core.memberChanged(updated);
  if (note) core.deps.notifications?.publish(note);
  return result;
}

function joinDecided(core: RoomCore, approved: boolean): NotificationPayload {
  return { kind: 'join_request.decided', roomId: core.id, roomName: core.current.name, approved };
}
