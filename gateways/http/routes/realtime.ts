import { AppError } from '../../../errors/app-error.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { RoomRates } from '../../rooms/room-rates.js';
import { connectProtocols, realtimePath } from '../../ws/protocol.js';
import { RealtimeTickets } from '../../ws/tickets.js';
import * as api from '../api/realtime.js';
import type { EndpointRouter } from '../endpoint-router.js';

/**
 * `POST /api/rooms/{roomId}/realtime/ticket`: counts the ticket against the caller's rate
 * (`rooms.ticket_rate`, and the address's for guests), asks the room whether the caller is an
 * active member now (`room.get`), then stores a ticket in Redis. The upgrade checks
 * membership again.
 */
export function mountRealtimeRoutes(
  router: EndpointRouter,
  gateway: GatewayDeps,
  tickets = new RealtimeTickets(gateway.redis),
  rates: Pick<RoomRates, 'ticket'> = new RoomRates(gateway.redis, gateway.config.rooms),
): void {
  router.mount(api.createRealtimeTicket, async (ctx, { params, caller }) => {
    await rates.ticket(caller, ctx.ip || 'unknown');
    const { result: view } = await gateway.rooms.send(params.roomId, { kind: 'room.get' }, caller);
    if (view.me.status !== 'active') {
      throw new AppError('forbidden', view.me.status === 'pending' ? 'your join request is waiting for approval' : 'only active members of the room can connect; join it first');
    }
    const issued = await tickets.issue(caller, params.roomId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...issued, path: realtimePath(params.roomId), protocols: connectProtocols({ ticket: issued.ticket }) };
  });
}
