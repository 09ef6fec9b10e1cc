/** The member endpoints of contracts/http/members.ts: one room command each. */
import type { RuntimeSettings } from '../../../settings/index.js';
import type { PermissionOverrides } from '../../../contracts/room/model.js';
import * as api from '../../../contracts/http/members.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';
import { memberView, requirePart } from './room-calls.js';

export function memberRoutes(settings: RuntimeSettings): readonly RoomRoute[] {
  const defaults = () => ({
    admin: [...settings.get('permissions.adminDefaultPermissions')],
    member: [...settings.get('permissions.memberDefaultPermissions')],
    guest: [...settings.get('permissions.guestDefaultPermissions')],
  });
  const permissionsBody = (overrides: PermissionOverrides, seq: number) => ({ overrides, defaults: defaults(), seq });
  const target = ({ params }: { params: { userId: string } }) => ({ userId: params.userId });
  const none = () => ({});

  return [
    roomCommand(api.listMembers, 'member.list', {
      command: ({ query }) => ({
        ...(query.cursor ? { after: query.cursor } : {}),
        ...(query.limit ? { limit: query.limit } : {}),
        ...(query.online ? { online: query.online === 'true' } : {}),
        ...(query.q ? { query: query.q } : {}),
      }),
      answer: (result, seq) => ({ members: result.members, ...(result.nextAfter ? { nextCursor: result.nextAfter } : {}), total: result.total, seq }),
    }),
    roomCommand(api.listBans, 'member.bans', {
      command: ({ query }) => ({ ...(query.cursor ? { after: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) }),
      answer: (result, seq) => ({ members: result.members, ...(result.nextAfter ? { nextCursor: result.nextAfter } : {}), total: result.total, seq }),
    }),
    roomCommand(api.listJoinRequests, 'room.get', { command: none, answer: (view, seq) => ({ members: requirePart(memberView(view).pendingMembers, 'manage_members'), seq }) }),
    roomCommand(api.setMemberRole, 'member.setRole', {
      command: ({ params, body }) => ({ userId: params.userId, role: body.role }),
      answer: (result, seq) => ({ member: result.member, seq }),
    }),
    roomCommand(api.setMemberPermissions, 'member.setPermissions', {
      command: ({ params, body }) => ({ userId: params.userId, grant: body.grant, deny: body.deny }),
      answer: (result, seq) => ({ member: result.member, seq }),
    }),
    roomCommand(api.kickMember, 'member.kick', { command: target, answer: (result, seq) => ({ userId: result.userId, seq }) }),
    roomCommand(api.banMember, 'member.ban', { command: target, answer: (result, seq) => ({ member: result.member, seq }) }),
    roomCommand(api.unbanMember, 'member.unban', { command: target, answer: (result, seq) => ({ userId: result.userId, seq }) }),
    roomCommand(api.approveJoinRequest, 'member.approve', { command: target, answer: (result, seq) => ({ member: result.member, seq }) }),
    roomCommand(api.rejectJoinRequest, 'member.reject', { command: target, answer: (result, seq) => ({ userId: result.userId, seq }) }),
    roomCommand(api.getRoomPermissions, 'room.get', { command: none, answer: (view, seq) => permissionsBody(memberView(view).room.permissionOverrides, seq) }),
    roomCommand(api.updateRoomPermissions, 'room.update', {
      command: ({ body }) => ({ permissionOverrides: body }),
      answer: (result, seq) => permissionsBody(result.room.permissionOverrides, seq),
    }),
  ];
}
