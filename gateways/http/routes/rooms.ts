import { createHmac } from 'node:crypto';
import { subjectOf, type Caller } from '../../../accounts/model.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { RoomDirectory } from '../../../actors/room/index.js';
import { newRoomId } from '../../rooms/room-client.js';
import { RoomPasswordGuesses } from '../../rooms/room-password-guesses.js';
import * as api from '../../../contracts/http/rooms.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { HttpContext } from '../state.js';
import { commandOptions, IDEMPOTENCY_HEADER } from './room-calls.js';

/**
 * The room endpoints of `api/rooms.ts`: each operation on one room is a room-actor command
 * sent as the caller; the listings read PostgreSQL through the room directory.
 */
export function mountRoomRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms } = deps;
  const directory = new RoomDirectory(deps.pool);
  const passwordGuesses = new RoomPasswordGuesses(deps.redis);

  router
    .mount(api.createRoom, async (ctx, { caller, body }) => {
      const { waitForAllReady, readyTimeoutMs, queueMode, permissionOverrides, ...rest } = body;
      const settings: NonNullable<RoomCommandOf<'room.create'>['settings']> = {
        ...(waitForAllReady !== undefined ? { waitForAllReady } : {}),
        ...(queueMode !== undefined ? { queueMode } : {}),
        ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
        ...(permissionOverrides !== undefined ? { permissionOverrides } : {}),
      };
      const roomId = createdRoomId(ctx, caller, deps.config.credential_encryption_key);
      const { result, seq } = await rooms.send(
        roomId,
        {
          kind: 'room.create',
          name: rest.name,
          visibility: rest.visibility ?? 'public',
          ...(rest.password !== undefined ? { password: rest.password } : {}),
          ...(rest.requireJoinApproval !== undefined ? { requireJoinApproval: rest.requireJoinApproval } : {}),
          ...(Object.keys(settings).length > 0 ? { settings } : {}),
        },
        caller,
      );
      ctx.status = 201;
      ctx.set('Location', `/api/rooms/${encodeURIComponent(result.room.id)}`);
      ctx.body = { room: result.room, seq };
    })
    .mount(api.listRooms, async (ctx, { query }) => {
      ctx.body = await directory.listPublic(query);
    })
    .mount(api.listMyRooms, async (ctx, { caller, query }) => {
      ctx.body = await directory.listMine(subjectOf(caller), query);
    })
    .mount(api.getRoom, async (ctx, { caller, params }) => {
      const { result } = await rooms.send(params.roomId, { kind: 'room.get' }, caller);
      ctx.body = result;
    })
    .mount(api.updateRoom, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'room.update', ...body }, caller, commandOptions(ctx, api.updateRoom.operationId, caller, params.roomId));
      ctx.body = { room: result.room, seq };
    })
    .mount(api.deleteRoom, async (ctx, { caller, params }) => {
      await rooms.send(params.roomId, { kind: 'room.delete' }, caller, commandOptions(ctx, api.deleteRoom.operationId, caller, params.roomId));
      ctx.status = 204;
    })
    .mount(api.joinRoom, async (ctx, { caller, params, body }) => {
      const password = body?.password;
      const { result, seq } = await passwordGuesses.guard({ roomId: params.roomId, userId: subjectOf(caller), ip: ctx.ip, password }, () =>
        rooms.send(
          params.roomId,
          { kind: 'member.join', ...(password !== undefined ? { password } : {}) },
          caller,
          commandOptions(ctx, api.joinRoom.operationId, caller, params.roomId),
        ),
      );
      ctx.body = { ...result, seq };
    })
    .mount(api.leaveRoom, async (ctx, { caller, params }) => {
      const { result, seq } = await rooms.send(params.roomId, { kind: 'member.leave' }, caller, commandOptions(ctx, api.leaveRoom.operationId, caller, params.roomId));
      ctx.body = { ...result, seq };
    })
    .mount(api.transferRoom, async (ctx, { caller, params, body }) => {
      const { result, seq } = await rooms.send(
        params.roomId,
        { kind: 'owner.transfer', userId: body.userId },
        caller,
        commandOptions(ctx, api.transferRoom.operationId, caller, params.roomId),
      );
      ctx.body = { room: result.room, seq };
    });
}

/**
 * A new room's id: random, or with an Idempotency-Key derived from it and the caller under a
 * server secret, so a retried create names the same room (which `room.create` answers again
 * for its creator) while the id stays unguessable to everyone else.
 */
function createdRoomId(ctx: HttpContext, caller: Caller, secret: string): string {
  const key = ctx.get(IDEMPOTENCY_HEADER);
  if (!key) return newRoomId();
  return createHmac('sha256', Buffer.from(secret, 'hex'))
    .update(['room-create', subjectOf(caller), key].join('\0'))
    .digest()
    .subarray(0, 16)
    .toString('base64url');
}
