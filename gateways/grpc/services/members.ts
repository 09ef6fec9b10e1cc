/** MemberService: the member lists of room.get, the bans a page at a time, and member.setRole/kick/ban/unban/approve/reject. */
import { AppError } from '../../../errors/app-error.js';
import type { GrpcCalls } from '../call.js';
import type { MemberServiceHandlers } from '../gen/svc/v1/MemberService.js';
import { enumIn, type RoomCalls } from '../room-calls.js';
import { member, ROLE } from '../views.js';

export function memberService(calls: GrpcCalls, rooms: RoomCalls): MemberServiceHandlers {
  return {
    ListMembers: calls.unary(async (request, ctx) => {
      const view = await rooms.send(ctx, request.roomId, { kind: 'room.get' });
      if (view.access !== 'member') throw new AppError('forbidden', 'only active members of the room see its members');
      if (!view.members) throw new AppError('forbidden', 'seeing the member list needs the view_member_list permission');
      return {
        members: view.members.map(member),
        pendingMembers: view.pendingMembers ? { members: view.pendingMembers.map(member) } : null,
        bannedMembers: view.bannedMembers ? { members: view.bannedMembers.map(member) } : null,
      };
    }),
    ListBans: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'member.bans', after: request.after, limit: request.limit });
      return { members: result.members.map(member), ...(result.nextAfter !== null ? { nextAfter: result.nextAfter } : {}), total: result.total };
    }),
    SetRole: calls.unary(async (request, ctx) => {
      const role = enumIn(ROLE, request.role, 'role');
      const result = await rooms.send(ctx, request.roomId, { kind: 'member.setRole', userId: request.userId, role });
      return { member: member(result.member) };
    }),
    Kick: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'member.kick', userId: request.userId })),
    Ban: calls.unary(async (request, ctx) => ({ member: member((await rooms.send(ctx, request.roomId, { kind: 'member.ban', userId: request.userId })).member) })),
    Unban: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'member.unban', userId: request.userId })),
    Approve: calls.unary(async (request, ctx) => ({
      member: member((await rooms.send(ctx, request.roomId, { kind: 'member.approve', userId: request.userId })).member),
    })),
    Reject: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'member.reject', userId: request.userId })),
  };
}
