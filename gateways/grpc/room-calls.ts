/**
 * How gRPC handlers reach a room: through the room-command entry (as HTTP and WebSocket do), as
 * the call's caller, with the client's idempotency key (`svc-command-id`) and what is left of its
 * deadline. A unary RPC that is one room command is a row (`command`): the command's fields from
 * the request, the answer from the result; a service is then a table of rows. Input the actor
 * cannot check (enum names) is checked here and named by its field.
 */
import type * as grpc from '@grpc/grpc-js';
import type { RoomCommandKind, RoomCommandOf, RoomResultOf } from '../../actors/index.js';
import type { SendResult } from '../../actors/index.js';
import { AppError } from '../../errors/index.js';
import type { RoomCommandEntry } from '../rooms/command-entry.js';
import type { CallerContext, GrpcCalls } from './call.js';

/** RoomClient's own default; a shorter client deadline wins. */
const ROOM_TIMEOUT_MS = 5_000;

export class RoomCalls {
  constructor(
    private readonly calls: GrpcCalls,
    private readonly commands: RoomCommandEntry,
  ) {}

  /** A unary RPC that sends one room command, `roomId` from the request. */
  command<K extends RoomCommandKind, Req extends { roomId: string }, Res>(
    kind: K,
    toCommand: (request: Req) => Omit<RoomCommandOf<K>, 'kind'>,
    toAnswer: (result: RoomResultOf<K>) => Res,
    sentAt?: (request: Req) => number | undefined,
  ): grpc.handleUnaryCall<Req, Res> {
    return this.calls.unary<Req, Res>(async (request, ctx) => {
      const command = { ...toCommand(request), kind } as RoomCommandOf<K> & { kind: K };
      return toAnswer(await this.send<K>(ctx, request.roomId, command, sentAt?.(request)));
    });
  }

  async send<K extends RoomCommandKind>(ctx: CallerContext, roomId: string, command: RoomCommandOf<K> & { kind: K }, sentAt?: number): Promise<RoomResultOf<K>> {
    const { result } = await this.sendWithSeq<K>(ctx, roomId, command, sentAt);
    return result;
  }

  /** With the room's event seq at the time of the answer. */
  sendWithSeq<K extends RoomCommandKind>(ctx: CallerContext, roomId: string, command: RoomCommandOf<K> & { kind: K }, sentAt?: number): Promise<SendResult<RoomResultOf<K>>> {
    return this.commands.send<K>({
      transport: 'grpc',
      caller: ctx.caller,
      roomId,
      command,
      operation: ctx.method,
      clientId: ctx.commandId,
      sentAt,
      timeoutMs: Math.min(ctx.timeoutMs ?? ROOM_TIMEOUT_MS, ROOM_TIMEOUT_MS),
      trace: ctx.trace,
    });
  }
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
