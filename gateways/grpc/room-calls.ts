/**
 * The one way gRPC handlers reach a room: through `RoomClient` (as HTTP and WebSocket do), as
 * the call's caller, with the client's idempotency key (`svc-command-id`, scoped to the caller,
 * method and room by rooms/command-id.ts) and what is left of its deadline. Input that the actor cannot check (the room id, enum names) is checked here
 * and named by its field, like the actor names the command's fields.
 */
import type { RoomCommandKind, RoomCommandOf, RoomResultOf } from '../../actors/room/index.js';
import type { SendResult } from '../../actors/runtime/client.js';
import { isValidActorId } from '../../actors/runtime/names.js';
import { AppError } from '../../errors/app-error.js';
import { roomCommandId } from '../rooms/command-id.js';
import type { RoomClient } from '../rooms/room-client.js';
import type { CallerContext } from './call.js';

/** RoomClient's own default; a shorter client deadline wins. */
const ROOM_TIMEOUT_MS = 5_000;

export class RoomCalls {
  constructor(private readonly rooms: RoomClient) {}

  async send<K extends RoomCommandKind>(ctx: CallerContext, roomId: string, command: RoomCommandOf<K> & { kind: K }, sentAt?: number): Promise<RoomResultOf<K>> {
    const { result } = await this.sendWithSeq<K>(ctx, roomId, command, sentAt);
    return result;
  }

  /** With the room's event seq at the time of the answer. */
  sendWithSeq<K extends RoomCommandKind>(ctx: CallerContext, roomId: string, command: RoomCommandOf<K> & { kind: K }, sentAt?: number): Promise<SendResult<RoomResultOf<K>>> {
    checkRoomId(roomId);
    return this.rooms.send<K>(roomId, command, ctx.caller, {
      ...(ctx.commandId !== undefined
        ? { commandId: roomCommandId({ transport: 'grpc', caller: ctx.caller, clientId: ctx.commandId, operation: ctx.method, roomId }) }
        : {}),
      ...(sentAt !== undefined ? { sentAt } : {}),
      timeoutMs: Math.min(ctx.timeoutMs ?? ROOM_TIMEOUT_MS, ROOM_TIMEOUT_MS),
    });
  }
}

export function checkRoomId(roomId: string, key = 'roomId'): void {
  if (!roomId) throw AppError.invalid([{ key, message: 'is required' }]);
  if (!isValidActorId(roomId)) throw AppError.invalid([{ key, message: 'must be 1 to 128 characters of A-Z, a-z, 0-9, "_" or "-"' }]);
}

/** The actor's value of an enum field the client sent; `invalid_argument` naming the field otherwise. */
export function enumIn<A extends string>(table: Readonly<Record<A, string>>, value: string | number | null | undefined, key: string): A {
  const found = (Object.keys(table) as A[]).find((name) => table[name] === value);
  if (found === undefined) throw AppError.invalid([{ key, message: `must be one of ${Object.values(table).join(', ')}` }]);
  return found;
}

/** A playback guard: "" stands for "nothing selected" (proto3 has no null string). */
export function expectedMedia(value: string | undefined): string | null | undefined {
  return value === undefined ? undefined : value === '' ? null : value;
}
