/**
 * Closing one's own account (docs/2026-11-26-profiles-and-accounts.md). Rooms are settled first,
 * through their actors; only then is anything of the account itself removed, so a room that
 * cannot be reached (unavailable, busy) leaves the account whole and the request can be repeated.
 */
import type { Accounts } from '../../../accounts/index.js';
import { closeAccountRecords } from '../../../accounts/index.js';
import { usernameKey } from '../../../accounts/index.js';
import { AppError } from '../../../errors/index.js';
import * as api from '../../../contracts/http/users.js';
import { forgetInRooms } from '../../rooms/forget-in-rooms.js';
import { leaveEveryRoom } from '../../rooms/leave-every-room.js';
import type { GatewayDeps } from '../../gateway-deps.js';
import type { EndpointRouter } from '../endpoint-router.js';
import { clientOf } from './auth.js';

export function mountCloseAccountRoute(router: EndpointRouter, accounts: Accounts, gateway: GatewayDeps): void {
  router.mount(api.closeMyAccount, async (ctx, { caller, body }) => {
    if (usernameKey(body.confirmUsername) !== usernameKey(caller.username)) {
      throw AppError.invalid([{ key: 'confirmUsername', message: 'must be your username' }]);
    }
    if (caller.role === 'root') {
      throw new AppError('forbidden', 'a root account cannot be closed: another root must first make it an ordinary user (PUT /api/admin/users/{userId}/role)');
    }
    await accounts.recentSignIn.prove(caller, body, clientOf(ctx), 'close the account');
    const rooms = await leaveEveryRoom(gateway.pool, gateway.rooms, caller);
    await forgetInRooms(gateway.pool, gateway.rooms, caller.userId);
    const records = await closeAccountRecords(gateway.pool, accounts.sessions, caller.userId);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      closed: {
        roomsLeft: rooms.left,
        roomsTransferred: rooms.transferred,
        roomsDeleted: rooms.deleted,
        anonymisedMessages: records.anonymisedMessages,
        revokedSessions: records.revokedSessions,
      },
    };
  });
}
