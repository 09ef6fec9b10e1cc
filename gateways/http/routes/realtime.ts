import { AppError } from '../../../errors/index.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import { RoomRates } from '../../rooms/room-rates.js';
import { reachedAs } from '../../../net/index.js';
import { OriginPolicy, UpgradeRefusal } from '../../ws/handshake.js';
import { connectProtocols, realtimePath } from '../../../contracts/ws/protocol.js';
import { RealtimeTickets } from '../../ws/tickets.js';
import * as api from '../../../contracts/http/realtime.js';
import type { EndpointRouter } from '../endpoint-router.js';

/**
 * `POST /api/rooms/{roomId}/realtime/ticket`: counts the ticket against the caller's rate
 * (`rooms.ticket_rate`, and the address's for guests), asks the room whether the caller is an
 * active member now (`room.get`), then stores a ticket in Redis. The upgrade checks
 * membership again.
 *
 * A browser page sends its Origin here too, and a page the socket would refuse for it is told
 * now, in words (403): the browser shows a refused upgrade only as a socket that closed, so
 * this answer is how the page learns why (web/src/realtime/connection.ts).
 */
export function mountRealtimeRoutes(
  router: EndpointRouter,
  gateway: GatewayDeps,
  tickets = new RealtimeTickets(gateway.redis),
  rates: Pick<RoomRates, 'ticket'> = new RoomRates(gateway.redis, gateway.config.rooms),
): void {
  const origins = new OriginPolicy(gateway.config.server.cors_allowed_origins, gateway.config.server.public_url || gateway.config.webauthn.rp_origin);
  router.mount(api.createRealtimeTicket, async (ctx, { params, caller }) => {
    const origin = ctx.get('Origin');
    // X-Forwarded-Host/-Proto are still here only when a trusted proxy sent them (clientAddress).
    if (origin !== '') checkOrigin(origins, origin, reachedAs(ctx.req, true));
    await rates.ticket(caller, ctx.ip || 'unknown');
    const { result: view } = await gateway.commands.send({ transport: 'http', caller, roomId: params.roomId, operation: api.createRealtimeTicket.operationId, command: { kind: 'room.get' }, trace: ctx.state.trace });
    if (view.me.status !== 'active') {
      throw new AppError('forbidden', view.me.status === 'pending' ? 'your join request is waiting for approval' : 'only active members of the room can connect; join it first');
    }
    const issued = await tickets.issue(caller, params.roomId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { ...issued, path: realtimePath(params.roomId), protocols: connectProtocols({ ticket: issued.ticket }) };
  });
}

function checkOrigin(origins: OriginPolicy, origin: string, reached: ReturnType<typeof reachedAs>): void {
  try {
    origins.check({ origin }, reached);
  } catch (err) {
    if (err instanceof UpgradeRefusal) throw new AppError('forbidden', err.refusal.message);
    throw err;
  }
}
