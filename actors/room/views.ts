/**
 * What the room shows of itself: to its members (filtered by their permissions), to visitors
 * (a preview), and in events. Every view is built afresh from the activation's state.
 */
import type { Permission } from '../../contracts/permissions/names.js';
import { ROOM_LIMITS } from '../../contracts/room/limits.js';
import type { MemberRoomView, MemberView, MyStanding, RoomInfo, RoomPreview, RoomView } from '../../contracts/room/model.js';
import type { RoomCore } from './core.js';
import { folderViews } from './media/playlist-state.js';
import { voteSkipField } from './playback/vote-skip.js';
import { banPage } from './members/ban-pages.js';
import { sortedPermissions } from './members/permissions.js';
import type { MemberRecord, RoomRecord } from './records.js';
import type { Access } from './turn.js';
import type { WordFilter } from '../../contracts/room/moderation.js';
import { itemSeenBy } from '../../contracts/room/item-headers.js';

export function wordFilterView(filter: WordFilter): WordFilter {
  return { mode: filter.mode, words: [...filter.words] };
}

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
    memberCount: [...core.members.values()].filter((m) => m.status === 'active').length,
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
  const byStatus = (status: MemberRecord['status']) =>
    [...core.members.values()].filter((m) => m.status === status).map((m) => memberView(core, m));
  const can = (permission: Permission) => access.permissions.has(permission);
  return {
    access: 'member',
    room: roomInfo(core.current),
    me: standing(access),
    ...(can('view_member_list') ? { members: byStatus('active') } : {}),
    ...(can('manage_members') ? managedMembers(core) : {}),
    ...(can('view_media_resources') ? { playlist: core.playlist.map((e) => itemSeenBy(e.item, access)), playlistFolders: folderViews(core), liveOnline: core.live.online() } : { liveOnline: currentOnAir(core) }),
    ...voteSkipField(core),
    polls: core.polls.views(access.userId),
    ...(can('edit_room_settings') ? { wordFilter: wordFilterView(core.current.options.wordFilter) } : {}),
    ...(can('view_media_resources') && core.current.options.queueMode === 'vote' ? { queueVotes: core.queueVotes.views(core.playlist) } : {}),
    playback: core.play.view(),
    ...(can('use_webrtc') ? { voice: core.voice.participants() } : {}),
    seq,
  };
}

/** The live items on air that a member without view_media_resources may know of: the current one. */
function currentOnAir(core: RoomCore): string[] {
  return core.live.online().filter((id) => id === core.playback.mediaId);
}

/**
 * Join requests and the first page of bans, with the ban count: each list has a cap, but a
 * room stored before the caps may hold more, and the view must still fit in one NATS message.
 */
function managedMembers(core: RoomCore): Pick<MemberRoomView, 'pendingMembers' | 'bannedMembers' | 'bannedCount'> {
  const pending: MemberView[] = [];
  for (const member of core.members.values()) {
    if (pending.length >= ROOM_LIMITS.pendingJoinRequestsMax) break;
    if (member.status === 'pending') pending.push(memberView(core, member));
  }
  const bans = banPage(core.members, ROOM_LIMITS.bansInView);
  return { pendingMembers: pending, bannedMembers: bans.bans.map((m) => memberView(core, m)), bannedCount: bans.total };
}
