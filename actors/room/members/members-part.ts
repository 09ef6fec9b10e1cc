/**
 * The members part: membership (join, approval, leave, kick, ban, roles, a member's own
 * permissions, forgetting a closed account) and presence (connections and their sweep). The
 * core holds the members and who is present; this part changes them and tells the others
 * through the core's hooks. Views list the members by what the viewer may see.
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberRoomView, MemberView } from '../../../contracts/room/model.js';
import type { RoomCore } from '../core.js';
import { roomPart } from '../part.js';
import type { MemberRecord } from '../records.js';
import { memberView } from '../views.js';
import { banPage } from './ban-pages.js';
import { forgetMember } from './forget-member.js';
import {
  approveMember,
  banMember,
  joinRoom,
  kickMember,
  leaveRoom,
  listBans,
  rejectMember,
  setMemberRole,
  unbanMember,
} from './member-handlers.js';
import { setMemberPermissions } from './member-permissions.js';
import { enterPresence, leavePresence, refreshPresence } from './presence-handlers.js';
import { ensurePresenceSweep, onPresenceTimer } from './presence-sweep.js';

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

function withStatus(core: RoomCore, status: MemberRecord['status']): MemberView[] {
  return [...core.members.values()].filter((m) => m.status === status).map((m) => memberView(core, m));
}

export const membersPart = roomPart({
  name: 'members',
  handlers: {
    'member.join': joinRoom,
    'member.leave': leaveRoom,
    'member.approve': approveMember,
    'member.reject': rejectMember,
    'member.kick': kickMember,
    'member.ban': banMember,
    'member.unban': unbanMember,
    'member.bans': listBans,
    'member.setRole': setMemberRole,
    'member.setPermissions': setMemberPermissions,
    'member.forget': forgetMember,
    'presence.enter': enterPresence,
    'presence.refresh': refreshPresence,
    'presence.leave': leavePresence,
  },
  timers: { presence: onPresenceTimer },
  view: (core, access) => ({
    ...(access.permissions.has('view_member_list') ? { members: withStatus(core, 'active') } : {}),
    ...(access.permissions.has('manage_members') ? managedMembers(core) : {}),
  }),
  presenceChanged: (core, userId, change) => {
    if (change === 'connection') return;
    // Everyone sees who is online (their player state no longer counts once they are not).
    const member = core.members.get(userId);
    if (member && member.status === 'active') core.publish({ type: 'member.updated', member: memberView(core, member) });
    ensurePresenceSweep(core);
  },
  memberRemoved: (core, _userId, { wasOnline }) => {
    if (wasOnline) ensurePresenceSweep(core);
  },
});
