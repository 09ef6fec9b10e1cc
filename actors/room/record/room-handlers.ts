/**
 * Creating, reading, changing, reviewing and deleting the room itself, and transferring its
 * ownership. What the other parts do about it (a voice seat lost with a permission, a vote-skip
 * threshold, a held play released) are their hooks: `roomChanged`, `creating`, `deleted`.
 */
import { AppError, type FieldIssue } from '../../../errors/index.js';
import type { Notification } from '../../../contracts/notifications.js';
import { recordNotification } from '../../../notifications/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberRecord, RoomRecord } from '../records.js';
import { checkOverrideAuthority } from './override-authority.js';
import { hashRoomPassword } from '../password.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { DEFAULT_ROOM_OPTIONS, deleteRoom, insertRoom, lockAndCountOwnedRooms, updateRoom, upsertMember } from '../room-rows.js';
import { checkLabel, checkPermissionOverrides, displayName } from '../validate.js';
import { memberView, roomInfo, roomView } from '../views.js';
import { checkWordFilter, wordFilterView } from '../moderation/word-filter.js';

/**
 * `room.passwordPolicy` applies when a password is set or removed; rooms created under an
 * earlier policy keep what they have until someone edits the password.
 */
function checkPasswordAgainstPolicy(core: RoomCore, password: string | null, issues: FieldIssue[]): void {
  const policy = core.deps.settings.get('room.passwordPolicy');
  if (policy === 'required' && password === null) {
    issues.push({ key: 'password', message: 'is required: the server requires a password on every room (room.passwordPolicy)' });
  }
  if (policy === 'forbidden' && password !== null) {
    issues.push({ key: 'password', message: 'is not allowed: the server forbids room passwords (room.passwordPolicy)' });
  }
}

/** Empty means "no password". */
function normalisePassword(password: string | null | undefined): string | null {
  return password === undefined || password === null || password === '' ? null : password;
}

async function requestReview(core: RoomCore, room: RoomRecord): Promise<void> {
  try {
    await core.deps.review.roomCreatedPendingReview({ id: room.id, name: room.name, ownerId: room.ownerId });
  } catch (err) {
    core.logger.error({ err, roomId: room.id }, 'could not request the review of a new room');
    throw new AppError('unavailable', 'the room was created but its review could not be requested; send room.create again');
  }
}

export async function createRoom(core: RoomCore, command: RoomCommandOf<'room.create'>, turn: Turn): Promise<RoomResults['room.create']> {
  const { access } = turn;
  const existing = core.room;
  if (existing) {
    // A retry by the creator (lost reply, failed review request) gets the same room back.
    if (existing.ownerId !== access.userId) throw new AppError('conflict', `room ${core.id} already exists`);
    if (existing.status === 'pending_review') await requestReview(core, existing);
    return { room: roomInfo(core.current) };
  }
  if (access.service) throw new AppError('forbidden', 'rooms are created by users; a service caller cannot own one');
  if (access.guest) throw new AppError('forbidden', 'guests cannot create rooms');

  // Either switch disables creation: `server.allowRoomCreation` is the server-wide policy and
  // `room.disableCreateRoom` the room-feature switch; an operator expects each to work alone.
  const settings = core.deps.settings;
  if (!settings.get('server.allowRoomCreation')) {
    throw new AppError('forbidden', 'room creation is disabled on this server (server.allowRoomCreation)');
  }
  if (settings.get('room.disableCreateRoom')) {
    throw new AppError('forbidden', 'room creation is disabled on this server (room.disableCreateRoom)');
  }

  const issues: FieldIssue[] = [];
  const name = checkLabel(command.name, 'name', ROOM_LIMITS.nameMaxChars, issues);
  const password = normalisePassword(command.password);
  checkPasswordAgainstPolicy(core, password, issues);
  if (issues.length > 0) throw AppError.invalid(issues);
  const wordFilter = command.settings?.wordFilter ? checkWordFilter(command.settings.wordFilter, issues) : DEFAULT_ROOM_OPTIONS.wordFilter;
  if (issues.length > 0) throw AppError.invalid(issues);
  const overrides = checkPermissionOverrides(command.settings?.permissionOverrides ?? {}, {});

  const now = turn.now;
  const room: RoomRecord = {
    id: core.id,
    name,
    ownerId: access.userId,
    passwordHash: password === null ? null : await hashRoomPassword(password),
    visibility: command.visibility,
    status: settings.get('room.createRoomNeedReview') ? 'pending_review' : 'active',
    options: {
      requireJoinApproval: command.requireJoinApproval ?? DEFAULT_ROOM_OPTIONS.requireJoinApproval,
      permissionOverrides: overrides,
      waitForAllReady: command.settings?.waitForAllReady ?? DEFAULT_ROOM_OPTIONS.waitForAllReady,
      readyTimeoutMs: command.settings?.readyTimeoutMs ?? DEFAULT_ROOM_OPTIONS.readyTimeoutMs,
      queueMode: command.settings?.queueMode ?? DEFAULT_ROOM_OPTIONS.queueMode,
      voteSkipPercent: command.settings?.voteSkipPercent ?? DEFAULT_ROOM_OPTIONS.voteSkipPercent,
      danmaku: command.settings?.danmaku ?? DEFAULT_ROOM_OPTIONS.danmaku,
      slowModeSeconds: command.settings?.slowModeSeconds ?? DEFAULT_ROOM_OPTIONS.slowModeSeconds,
      wordFilter,
    },
    createdAt: now,
    updatedAt: now,
  };
  const owner: MemberRecord = {
    userId: access.userId,
    name: displayName(access.name, access.userId),
    role: 'admin',
    status: 'active',
    guest: false,
    joinedAt: now,
  };
  // What the parts store with a new room (the playback row) and start it with.
  const created = core.creating();
  const maxRooms = settings.get('server.maxRoomsPerUser');
  await core.durable('create the room', async (client) => {
    // Counted under a per-owner lock in the same transaction as the insert, so two creations
    // racing on two hosts cannot both see room for one more.
    const owned = await lockAndCountOwnedRooms(client, access.userId);
    if (owned >= maxRooms) {
      throw new AppError('limit_exceeded', `you already own ${owned} rooms, the most allowed (server.maxRoomsPerUser = ${maxRooms})`);
    }
    await insertRoom(client, room, owner);
    await created.write(client);
  });
  await core.adopt(room, owner, created);
  if (room.status === 'pending_review') await requestReview(core, room);
  return { room: roomInfo(core.current) };
}

export function getRoom(core: RoomCore, _command: RoomCommandOf<'room.get'>, turn: Turn): Promise<RoomResults['room.get']> {
  return Promise.resolve(roomView(core, turn.access));
}

export async function updateRoomSettings(
  core: RoomCore,
  command: RoomCommandOf<'room.update'>,
  turn: Turn,
): Promise<RoomResults['room.update']> {
  core.require(turn.access, 'edit_room_settings', 'changing room settings');
  const current = core.current;
  const issues: FieldIssue[] = [];
  const next: RoomRecord = { ...current, options: { ...current.options } };
  if (command.name !== undefined) next.name = checkLabel(command.name, 'name', ROOM_LIMITS.nameMaxChars, issues);
  let newPassword: string | null | undefined;
  if (command.password !== undefined) {
    newPassword = normalisePassword(command.password);
    checkPasswordAgainstPolicy(core, newPassword, issues);
  }
  if (command.wordFilter !== undefined) next.options.wordFilter = checkWordFilter(command.wordFilter, issues);
  if (issues.length > 0) throw AppError.invalid(issues);
  if (command.permissionOverrides !== undefined) {
    next.options.permissionOverrides = checkPermissionOverrides(command.permissionOverrides, current.options.permissionOverrides);
    checkOverrideAuthority(turn.access, current.options.permissionOverrides, next.options.permissionOverrides, core.deps.settings);
  }
  if (command.visibility !== undefined) next.visibility = command.visibility;
  if (command.requireJoinApproval !== undefined) next.options.requireJoinApproval = command.requireJoinApproval;
  if (command.waitForAllReady !== undefined) next.options.waitForAllReady = command.waitForAllReady;
  if (command.danmaku !== undefined) next.options.danmaku = command.danmaku;
  if (command.readyTimeoutMs !== undefined) next.options.readyTimeoutMs = command.readyTimeoutMs;
  if (command.queueMode !== undefined) next.options.queueMode = command.queueMode;
  if (command.voteSkipPercent !== undefined) next.options.voteSkipPercent = command.voteSkipPercent;
  if (command.slowModeSeconds !== undefined) next.options.slowModeSeconds = command.slowModeSeconds;
  if (newPassword !== undefined) next.passwordHash = newPassword === null ? null : await hashRoomPassword(newPassword);
  next.updatedAt = turn.now;

  const result = await core.commit(turn, 'update the room', async (client) => {
    await updateRoom(client, next);
    return { room: roomInfo(next) };
  });
  core.room = next;
  // Before room.updated: a settings form that remounts on room.updated then reads the new list.
  if (command.wordFilter !== undefined) core.publish({ type: 'room.wordFilter', wordFilter: wordFilterView(next.options.wordFilter) });
  core.publish({ type: 'room.updated', room: result.room });
  // Overrides that take use_webrtc away end voice seats, a new threshold changes the vote-skip
  // count, turning the ready wait off releases a held play: each part's roomChanged.
  await core.roomChanged(current, turn.access.userId);
  return result;
}

export async function deleteRoomCommand(core: RoomCore, _command: RoomCommandOf<'room.delete'>, turn: Turn): Promise<RoomResults['room.delete']> {
  core.requireOwner(turn.access, 'delete the room');
  const result = await core.commit(turn, 'delete the room', async (client) => {
    await deleteRoom(client, core.id);
    return { deleted: true as const };
  });
  core.deleted();
  core.publish({ type: 'room.deleted', roomId: core.id });
  return result;
}

/** The room-review workflow's decision; repeating the same decision is a no-op. */
export async function reviewRoom(core: RoomCore, command: RoomCommandOf<'room.review'>, turn: Turn): Promise<RoomResults['room.review']> {
  if (!turn.access.service) throw new AppError('forbidden', 'rooms are reviewed by the review workflow (a service caller)');
  const current = core.current;
  const target = command.approve ? 'active' : 'rejected';
  if (current.status === target) return { room: roomInfo(core.current) };
  if (current.status !== 'pending_review') {
    throw new AppError('conflict', `room ${core.id} is ${current.status}, not waiting for review`);
  }
  const next: RoomRecord = { ...current, status: target, updatedAt: turn.now };
  let note: Notification | undefined;
  const result = await core.commit(turn, 'record the review', async (client) => {
    await updateRoom(client, next);
    note = await recordNotification(client, next.ownerId, {
      kind: 'review.decided',
      review: 'room',
      approved: command.approve,
      roomId: next.id,
      roomName: next.name,
    });
    return { room: roomInfo(next) };
  });
  core.room = next;
  core.publish({ type: 'room.updated', room: result.room });
  if (note) core.deps.notifications?.publish(note);
  await core.roomChanged(current, turn.access.userId);
  return result;
}

export async function transferOwnership(
  core: RoomCore,
  command: RoomCommandOf<'owner.transfer'>,
  turn: Turn,
): Promise<RoomResults['owner.transfer']> {
  core.requireOwner(turn.access, 'transfer ownership');
  const current = core.current;
  const target = core.members.get(command.userId);
  if (!target || target.status !== 'active') {
    throw new AppError('not_found', `${command.userId} is not an active member of this room`);
  }
  if (target.guest) throw new AppError('forbidden', 'a guest cannot own a room');
  if (current.ownerId === target.userId) return { room: roomInfo(core.current) };

  const maxRooms = core.deps.settings.get('server.maxRoomsPerUser');
  const next: RoomRecord = { ...current, ownerId: target.userId, updatedAt: turn.now };
  const newOwner: MemberRecord = { ...target, role: 'admin' };
  const previousOwner = core.members.get(current.ownerId);
  const result = await core.commit(turn, 'transfer ownership', async (client) => {
    // The quota holds for rooms received too, or it could be dodged by creating and handing over.
    const owned = await lockAndCountOwnedRooms(client, target.userId);
    if (owned >= maxRooms) {
      throw new AppError('limit_exceeded', `${target.userId} already owns ${owned} rooms (server.maxRoomsPerUser = ${maxRooms})`);
    }
    await updateRoom(client, next);
    await upsertMember(client, core.id, newOwner);
    return { room: roomInfo(next) };
  });
  core.room = next;
  core.members.set(newOwner.userId, newOwner);
  core.publish({ type: 'room.updated', room: result.room });
  core.publish({ type: 'member.updated', member: memberView(core, newOwner) });
  // The previous owner stays in the room as an admin.
  if (previousOwner) core.publish({ type: 'member.updated', member: memberView(core, previousOwner) });
  // Both owners' permissions changed with it.
  await core.roomChanged(current, turn.access.userId);
  return result;
}
