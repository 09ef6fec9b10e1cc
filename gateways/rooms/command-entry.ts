/**
 * The one way a client's room command enters the service, whichever transport carried it (an
 * HTTP route, a WebSocket frame, a gRPC call): the room id is checked, the kinds the gateway
 * sends on a connection's behalf are refused, the client's idempotency id becomes the envelope id
 * (command-id.ts: scoped to the transport, caller, operation and room), and the command goes to
 * the room as the authenticated caller, counted against its rates. The room actor checks the
 * command's shape once, with the schema of contracts/room/commands.ts that the transports' own
 * schemas are built from; every transport maps the errors with the one table of contracts/errors.ts.
 */
import type { Caller } from '../../accounts/index.js';
import { GATEWAY_OWNED_KINDS } from '../../contracts/ws/constants.js';
import { assertActorId } from '../../actors/index.js';
import type { RoomCommandKind, RoomCommandOf, RoomResultOf } from '../../actors/index.js';
import type { SendResult } from '../../actors/index.js';
import type { TraceFields } from '../../observability/index.js';
import { AppError } from '../../errors/index.js';
import { roomCommandId, type CommandTransport } from './command-id.js';
import type { RoomClient } from './room-client.js';

export interface ClientCommand<K extends RoomCommandKind> {
  transport: CommandTransport;
  caller: Caller;
  roomId: string;
  command: RoomCommandOf<K> & { kind: K };
  /** The HTTP operationId, the gRPC method, the WebSocket command kind. */
  operation: string;
  /** The client's idempotency id (`Idempotency-Key`, a frame's `id`, `svc-command-id`), if it sent one. */
  clientId?: string | undefined;
  /** Tells apart the several commands of one request (bulk playlist adds). */
  part?: number | undefined;
  /** The client's own send time (server-clock ms), for transit compensation of play/seek. */
  sentAt?: number | undefined;
  timeoutMs?: number | undefined;
  /** Already counted against the caller's rate as part of the same request. */
  counted?: boolean | undefined;
  /** The transport's span (its fields), which the actor send continues. */
  trace?: TraceFields | undefined;
}

export class RoomCommandEntry {
  constructor(private readonly rooms: RoomClient) {}

  async send<K extends RoomCommandKind>(input: ClientCommand<K>): Promise<SendResult<RoomResultOf<K>>> {
    checkRoomId(input.roomId);
    if (GATEWAY_OWNED_KINDS.includes(input.command.kind)) {
      throw AppError.invalid([{ key: 'command.kind', message: `${input.command.kind} is sent by the gateway for this connection` }]);
    }
    const commandId =
      input.clientId === undefined
        ? undefined
        : roomCommandId({ transport: input.transport, caller: input.caller, clientId: input.clientId, operation: input.operation, roomId: input.roomId, part: input.part });
    return this.rooms.send<K>(input.roomId, input.command, input.caller, {
      ...(commandId !== undefined ? { commandId } : {}),
      ...(input.sentAt !== undefined ? { sentAt: input.sentAt } : {}),
      ...(input.timeoutMs !== undefined ? { timeoutMs: input.timeoutMs } : {}),
      ...(input.counted ? { counted: true } : {}),
      ...(input.trace ? { trace: input.trace } : {}),
    });
  }
}

/** `invalid_argument` naming the field when a room id cannot address a room. */
export function checkRoomId(roomId: string, key = 'roomId'): void {
  if (!roomId) throw AppError.invalid([{ key, message: 'is required' }]);
  assertActorId(roomId, key);
}
