/**
 * What every room route shares: the caller's Idempotency-Key turned into the room command id,
 * and room.get views narrowed to what an endpoint answers.
 */
import type { Caller } from '../../../accounts/model.js';
import type { MemberRoomView, RoomView } from '../../../contracts/room/model.js';
import { AppError } from '../../../errors/app-error.js';
import { roomCommandId } from '../../rooms/command-id.js';
import type { RoomSendOptions } from '../../rooms/room-client.js';
import type { HttpContext } from '../state.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/**
 * The room command id of a request carrying `Idempotency-Key` (see rooms/command-id.ts): a
 * retry of this request (through any gateway) runs once. `part` tells apart the several
 * commands of one request (bulk playlist adds).
 */
export function commandOptions(ctx: HttpContext, operationId: string, caller: Caller, roomId: string, part?: number): RoomSendOptions {
  const key = ctx.get(IDEMPOTENCY_HEADER);
  if (!key) return {};
  return { commandId: roomCommandId({ transport: 'http', caller, clientId: key, operation: operationId, roomId, ...(part !== undefined ? { part } : {}) }) };
}

/** The member view of a room, or `forbidden` for someone who is not an active member. */
export function memberView(view: RoomView): MemberRoomView {
  if (view.access === 'member') return view;
  const standing = view.me.status === 'pending' ? 'your join request is waiting for approval' : 'join the room first';
  throw new AppError('forbidden', `only active members can see this; ${standing}`);
}

/** A part of the member view that needs a permission, or `forbidden` naming it. */
export function requirePart<T>(part: T | undefined, permission: string): T {
  if (part === undefined) throw new AppError('forbidden', `this needs the ${permission} permission in this room`);
  return part;
}
