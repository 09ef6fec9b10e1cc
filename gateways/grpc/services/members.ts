/** MemberService: the member lists of room.get, the members and the bans a page at a time, and member.setRole/kick/ban/unban/approve/reject: one row each. */
import type { MemberView } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/index.js';
import type { Handlers } from '../service-table.js';
import type { MemberServiceHandlers } from '../gen/svc/v1/MemberService.js';
import { enumIn, type RoomCalls } from '../room-calls.js';
import { member, ROLE } from '../views.js';

const target = <R extends { userId: string }>(request: R) => ({ userId: request.userId });
const withMember = (result: { member: MemberView }) => ({ member: member(result.member) });
const asIs = <T>(result: T): T => result;

export function memberService(rooms: RoomCalls): Handlers<MemberServiceHandlers> {
  return {
    ListMembers: rooms.command(
      'room.get',
      () => ({}),
      (view) => {
        if (view.access !== 'member') throw new AppError('forbidden', 'only active members of the room see its members');
        if (!view.members) throw new AppError('forbidden', 'seeing the member list needs the view_member_list permission');
        return {
          members: view.members.map(member),
          pendingMembers: view.pendingMembers ? { members: view.pendingMembers.map(member) } : null,
          bannedMembers: view.bannedMembers ? { members: view.bannedMembers.map(member) } : null,
        };
      },
    ),
    ListBans: rooms.command(
      'member.bans',
      (request) => ({ after: request.after, limit: request.limit }),
      (result) => ({ members: result.members.map(member), ...(result.nextAfter !== null ? { nextAfter: result.nextAfter } : {}), total: result.total }),
    ),
    PageMembers: rooms.command(
      'member.list',
      (request) => ({ after: request.after, limit: request.limit, online: request.online, query: request.query }),
      (result) => ({ members: result.members.map(member), ...(result.nextAfter !== null ? { nextAfter: result.nextAfter } : {}), total: result.total }),
    ),
    SetRole: rooms.command('member.setRole', (request) => ({ userId: request.userId, role: enumIn(ROLE, request.role, 'role') }), withMember),
    SetPermissions: rooms.command('member.setPermissions', (request) => ({ userId: request.userId, grant: request.grant, deny: request.deny }), withMember),
    Kick: rooms.command('member.kick', target, asIs),
    Ban: rooms.command('member.ban', target, withMember),
    Unban: rooms.command('member.unban', target, asIs),
    Approve: rooms.command('member.approve', target, withMember),
    Reject: rooms.command('member.reject', target, asIs),
  };
}
