import { createHmac } from 'node:crypto';
import { subjectOf, type Caller } from '../../../accounts/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { RoomDirectory } from '../../../actors/index.js';
import { newRoomId } from '../../rooms/room-client.js';
import { RoomPasswordGuesses } from '../../rooms/room-password-guesses.js';
import * as api from '../../../contracts/http/rooms.js';
import type { EndpointRouter } from '../endpoint-router.js';
import type { HttpContext } from '../state.js';
import { IDEMPOTENCY_HEADER, mountRoomCommands, roomCommand } from '../room-command-route.js';

/**
 * The room endpoints of contracts/http/rooms.ts: each operation on one room is a room command
 * through the entry; the listings read PostgreSQL through the room directory.
 */
export function mountRoomRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { commands } = deps;
  const directory = new RoomDirectory(deps.pool);
  const passwordGuesses = new RoomPasswordGuesses(deps.redis);

  router
    .mount(api.createRoom, async (ctx, { caller, body }) => {
      const { waitForAllReady, readyTimeoutMs, queueMode, voteSkipPercent, danmaku, slowModeSeconds, wordFilter, permissionOverrides, ...rest } = body;
      const settings: NonNullable<RoomCommandOf<'room.create'>['settings']> = {
        ...(waitForAllReady !== undefined ? { waitForAllReady } : {}),
        ...(queueMode !== undefined ? { queueMode } : {}),
        ...(voteSkipPercent !== undefined ? { voteSkipPercent } : {}),
        ...(danmaku !== undefined ? { danmaku } : {}),
        ...(slowModeSeconds !== undefined ? { slowModeSeconds } : {}),
        ...(wordFilter !== undefined ? { wordFilter } : {}),
        ...(readyTimeoutMs !== undefined ? { readyTimeoutMs } : {}),
        ...(permissionOverrides !== undefined ? { permissionOverrides } : {}),
      };
      // The Idempotency-Key makes the room id (createdRoomId), so a retry answers the same room.
      const { result, seq } = await commands.send({
        transport: 'http',
        caller,
        roomId: createdRoomId(ctx, caller, deps.config.credential_encryption_key),
        operation: api.createRoom.operationId,
        trace: ctx.state.trace,
        command: {
          kind: 'room.create',
          name: rest.name,
          visibility: rest.visibility ?? 'public',
          ...(rest.password !== undefined ? { password: rest.password } : {}),
          ...(rest.requireJoinApproval !== undefined ? { requireJoinApproval: rest.requireJoinApproval } : {}),
          ...(Object.keys(settings).length > 0 ? { settings } : {}),
        },
      });
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
    .mount(api.joinRoom, async (ctx, { caller, params, body }) => {
      const password = body?.password;
      const { result, seq } = await passwordGuesses.guard({ roomId: params.roomId, userId: subjectOf(caller), ip: ctx.ip, password }, () =>
        commands.send({
          transport: 'http',
          caller,
          roomId: params.roomId,
          operation: api.joinRoom.operationId,
          clientId: ctx.get(IDEMPOTENCY_HEADER) || undefined,
          trace: ctx.state.trace,
          command: { kind: 'member.join', ...(password !== undefined ? { password } : {}) },
        }),
      );
      ctx.body = { ...result, seq };
    });
  mountRoomCommands(router, commands, [
    roomCommand(api.getRoom, 'room.get', { command: () => ({}), answer: (view) => view }),
    roomCommand(api.updateRoom, 'room.update', { command: ({ body }) => body, answer: (result, seq) => ({ room: result.room, seq }) }),
    roomCommand(api.deleteRoom, 'room.delete', { command: () => ({}), answer: () => undefined, status: 204 }),
    roomCommand(api.leaveRoom, 'member.leave', { command: () => ({}), answer: (result, seq) => ({ ...result, seq }) }),
    roomCommand(api.transferRoom, 'owner.transfer', { command: ({ body }) => ({ userId: body.userId }), answer: (result, seq) => ({ room: result.room, seq }) }),
  ]);
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
