import type { Caller } from '../../../accounts/model.js';
import type { PermissionOverrides } from '../../../contracts/room/model.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import * as api from '../../../contracts/http/members.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { commandOptions, memberView, requirePart } from './room-calls.js';

/** The member endpoints of `api/members.ts`, each a room-actor command sent as the caller. */
export function mountMemberRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms, settings } = deps;
  const view = async (roomId: string, caller: Caller) => {
    const { result, seq } = await rooms.send(roomId, { kind: 'room.get' }, caller);
    return { view: memberView(result), seq };
  };
  const defaults = () => ({
    admin: [...settings.get('permissions.adminDefaultPermissions')],
    member: [...settings.get('permissions.memberDefaultPermissions')],
    guest: [...settings.get('permissions.guestDefaultPermissions')],
  });
  const permissionsBody = (overrides: PermissionOverrides, seq: number) => ({ overrides, defaults: defaults(), seq });

  router
    .mount(api.listMembers, async (ctx, { caller, params }) => {
      const { view: room, seq } = await view(params.roomId, caller);
      ctx.body = { members: requirePart(room.members, 'view_member_list'), seq };
    })
    .mount(api.listBans, async (ctx, { caller, params, query }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'member.bans', ...(query.cursor ? { after: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) },
        caller,
      );
      ctx.body = { members: result.members, ...(result.nextAfter ? { nextCursor: result.nextAfter } : {}), total: result.total, seq };
    })
    .mount(api.listJoinRequests, async (ctx, { caller, params }) => {
      const { view: room, seq } = await view(params.roomId, caller);
      ctx.body = { members: requirePart(room.pendingMembers, 'manage_members'), seq };
    })
    .mount(api.setMemberRole, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'member.setRole', userId: params.userId, role: body.role },
        caller,
        commandOptions(ctx, api.setMemberRole.operationId, caller, params.roomId),
      );
      ctx.body = { member: result.member, seq };
    })
    .mount(api.kickMember, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'member.kick', userId: params.userId }, caller, commandOptions(ctx, api.kickMember.operationId, caller, params.roomId));
      ctx.body = { userId: result.userId, seq };
    })
    .mount(api.banMember, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'member.ban', userId: params.userId }, caller, commandOptions(ctx, api.banMember.operationId, caller, params.roomId));
      ctx.body = { member: result.member, seq };
    })
    .mount(api.unbanMember, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'member.unban', userId: params.userId }, caller, commandOptions(ctx, api.unbanMember.operationId, caller, params.roomId));
      ctx.body = { userId: result.userId, seq };
    })
    .mount(api.approveJoinRequest, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'member.approve', userId: params.userId },
        caller,
        commandOptions(ctx, api.approveJoinRequest.operationId, caller, params.roomId),
      );
      ctx.body = { member: result.member, seq };
    })
    .mount(api.rejectJoinRequest, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'member.reject', userId: params.userId },
        caller,
        commandOptions(ctx, api.rejectJoinRequest.operationId, caller, params.roomId),
      );
      ctx.body = { userId: result.userId, seq };
    })
    .mount(api.getRoomPermissions, async (ctx, { caller, params }) => {
      const { view: room, seq } = await view(params.roomId, caller);
      ctx.body = permissionsBody(room.room.permissionOverrides, seq);
    })
    .mount(api.updateRoomPermissions, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'room.update', permissionOverrides: body },
        caller,
        commandOptions(ctx, api.updateRoomPermissions.operationId, caller, params.roomId),
      );
      ctx.body = permissionsBody(result.room.permissionOverrides, seq);
    });
}
