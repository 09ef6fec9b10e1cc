/**
 * What the room shows of itself: to its members (filtered by their permissions), to visitors
 * (a preview), and in events. Every view is built afresh from the activation's state; a
 * member's view is the room's record and standing here, and each part's fields (its `view`).
 */
import type { MemberRoomView, MemberView, MyStanding, RoomInfo, RoomPreview, RoomView } from '../../contracts/room/model.js';
import type { RoomCore } from './core.js';
import { sortedPermissions } from './permissions.js';
import type { MemberRecord, RoomRecord } from './records.js';
import type { Access } from './turn.js';

export function roomInfo(room: RoomRecord): RoomInfo {
  return {
    id: room.id,
    name: room.name,
    ownerId: room.ownerId,
    visibility: room.visibility,
    status: room.status,
    hasPassword: room.passwordHash !== null,
    requireJoinApproval: room.options.requireJoinApproval,
    waitForAllReady: room.options.waitForAllReady,
    readyTimeoutMs: room.options.readyTimeoutMs,
    queueMode: room.options.queueMode,
    voteSkipPercent: room.options.voteSkipPercent,
    danmaku: room.options.danmaku,
    permissionOverrides: structuredClone(room.options.permissionOverrides),
    slowModeSeconds: room.options.slowModeSeconds,
    createdAt: room.createdAt,
    updatedAt: room.updatedAt,
  };
}

export function roomPreview(core: RoomCore): RoomPreview {
  const room = core.current;
  return {
    id: room.id,
    name: room.name,
    visibility: room.visibility,
    status: room.status,
    hasPassword: room.passwordHash !== null,
    requireJoinApproval: room.options.requireJoinApproval,
    memberCount: core.members.count('active'),
  };
}

export function memberView(core: RoomCore, member: MemberRecord): MemberView {
  const online = core.presence.isOnline(member.userId);
  return {
    userId: member.userId,
    name: member.name,
    role: member.guest ? 'guest' : member.role,
    status: member.status,
    guest: member.guest,
    isOwner: core.room?.ownerId === member.userId,
    joinedAt: member.joinedAt,
    online,
    player: online ? core.presence.player(member.userId) : null,
    permissionOverride: member.permissionOverride ? structuredClone(member.permissionOverride) : null,
  };
}

export function standing(access: Access): MyStanding {
  return {
    userId: access.userId,
    status: access.member?.status ?? 'none',
    role: access.role,
    isOwner: access.isOwner,
    permissions: access.active ? sortedPermissions(access.permissions) : [],
    permissionOverride: access.member?.permissionOverride ? structuredClone(access.member.permissionOverride) : null,
  };
}

export function roomView(core: RoomCore, access: Access): RoomView {
  const seq = core.ctx.currentSeq();
  if (!access.active) return { access: 'visitor', room: roomPreview(core), me: standing(access), seq };
  // The playback part always adds `playback`; the registry (parts.ts) holds it.
  const view = { access: 'member', room: roomInfo(core.current), me: standing(access) } as MemberRoomView;
  for (const part of core.parts) if (part.view) Object.assign(view, part.view(core, access));
  view.seq = seq;
  return view;
}
