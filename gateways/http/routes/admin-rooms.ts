import type { UserCaller } from '../../../accounts/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { RoomDirectory } from '../../../actors/index.js';
import * as api from '../../../contracts/http/admin-rooms.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { memberView } from './room-calls.js';

/**
 * The admin room endpoints of `api/admin-rooms.ts`: the listing from PostgreSQL, reads and
 * deletes as the service (`user:<username>` names the administrator in the actor's logs).
 */
export function mountAdminRoomRoutes(router: EndpointRouter, deps: GatewayDeps): void {
  const { rooms } = deps;
  const directory = new RoomDirectory(deps.pool);
  const actorName = (caller: UserCaller) => `user:${caller.username}`;

  router
    .mount(api.adminListRooms, async (ctx, { query }) => {
      const { status, visibility, owner, query: search, cursor, limit } = query;
      ctx.body = await directory.listAll(
        { ...(status ? { status } : {}), ...(visibility ? { visibility } : {}), ...(owner ? { ownerId: owner } : {}), ...(search ? { query: search } : {}) },
        { ...(cursor ? { cursor } : {}), ...(limit ? { limit } : {}) },
      );
    })
    .mount(api.adminGetRoom, async (ctx, { caller, params }) => {
      const { result } = await rooms.sendAsService(params.roomId, { kind: 'room.get' }, actorName(caller));
      ctx.body = memberView(result);
    })
    .mount(api.adminDeleteRoom, async (ctx, { caller, params }) => {
      await rooms.sendAsService(params.roomId, { kind: 'room.delete' }, actorName(caller));
      ctx.state.log.info({ event: 'admin.room.delete', roomId: params.roomId, actor: actorName(caller) }, 'an administrator deleted a room');
      ctx.status = 204;
    });
}
