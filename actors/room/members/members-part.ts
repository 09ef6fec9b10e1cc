/**
 * The members part: membership (join, approval, leave, kick, ban, roles, a member's own
 * permissions, forgetting a closed account) and presence (connections and their sweep). The
 * core holds the members and who is present; this part changes them and tells the others
 * through the core's hooks. Views list the members by what the viewer may see; a crowd's list
 * only its owner and admins, and count the rest (headcount.ts).
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { MemberRoomView, MemberView } from '../../../contracts/room/model.js';
import type { RoomCore } from '../core.js';
import { roomPart } from '../part.js';
import { memberView } from '../views.js';
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
import { HEADCOUNT, HEADCOUNT_TIMER, headcount, headcountChanged, isCrowd, namedOneByOne, onHeadcountTimer } from './headcount.js';
import { banPage, listMembers } from './member-pages.js';

/**
 * Join requests and the first page of bans, with the ban count: each list has a cap, but a
 * room stored before the caps may hold more, and the view must still fit in one NATS message.
 */
function managedMembers(core: RoomCore): Pick<MemberRoomView, 'pendingMembers' | 'bannedMembers' | 'bannedCount'> {
  const pending: MemberView[] = [];
  for (const member of core.members.withStatus('pending').values()) {
    if (pending.length >= ROOM_LIMITS.pendingJoinRequestsMax) break;
    pending.push(memberView(core, member));
  }
  const bans = banPage(core.members, ROOM_LIMITS.bansInView);
  return { pendingMembers: pending, bannedMembers: bans.members.map((m) => memberView(core, m)), bannedCount: bans.total };
}

/** Every active member; in a crowd, its owner and admins (the rest are read with `member.list`). */
function listed(core: RoomCore): MemberView[] {
  if (!isCrowd(core)) return [...core.members.values()].filter((member) => member.status === 'active').map((member) => memberView(core, member));
  const owner = core.room ? core.members.get(core.room.ownerId) : undefined;
  const named = owner?.status === 'active' ? [owner] : [];
  for (const admin of core.members.activeAdmins()) {
    if (named.length >= ROOM_LIMITS.crowdListedMax) break;
    if (admin !== owner) named.push(admin);
  }
  return named.map((member) => memberView(core, member));
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
    'member.list': listMembers,
    'member.setRole': setMemberRole,
    'member.setPermissions': setMemberPermissions,
    'member.forget': forgetMember,
    'presence.enter': enterPresence,
    'presence.refresh': refreshPresence,
    'presence.leave': leavePresence,
  },
  state: [HEADCOUNT],
  timers: { presence: onPresenceTimer, [HEADCOUNT_TIMER]: onHeadcountTimer },
  view: (core, access) => ({
    headcount: headcount(core),
    ...(access.permissions.has('view_member_list') ? { members: listed(core) } : {}),
    ...(access.permissions.has('manage_members') ? managedMembers(core) : {}),
  }),
  presenceChanged: (core, userId, change) => {
    if (change === 'connection') return;
    // Everyone sees who is online (their player state no longer counts once they are not); a
    // crowd counts its plain members instead.
    const member = core.members.get(userId);
    if (member && member.status === 'active' && namedOneByOne(core, member)) core.publish({ type: 'member.updated', member: memberView(core, member) });
    headcountChanged(core);
    ensurePresenceSweep(core);
  },
  memberJoined: (core) => headcountChanged(core),
  memberRemoved: (core, _userId, { wasOnline }) => {
    headcountChanged(core);
    if (wasOnline) ensurePresenceSweep(core);
  },
});
