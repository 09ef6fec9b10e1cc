/**
 * The one way a client's idempotency id (HTTP `Idempotency-Key`, a WebSocket frame `id`, gRPC
 * `svc-command-id`) becomes a room command's envelope id. The id is a digest of the transport,
 * the caller, the operation, the room and the client's id, so no client-chosen string is ever
 * the envelope id verbatim: the same id from another caller, another transport, another
 * operation or another room is another command, and only a retry of this one (through any
 * gateway replica of the same transport) runs once. The actor runtime scopes its dedupe by
 * caller as well (actors/runtime/command-key.ts); this keeps the ids apart before they get there.
 */
import { createHash } from 'node:crypto';
import { subjectOf, type Caller } from '../../accounts/index.js';

export type CommandTransport = 'http' | 'ws' | 'grpc';

export interface ClientCommandId {
  transport: CommandTransport;
  /** The authenticated caller the command is sent as. */
  caller: Caller;
  /** What the client sent as its idempotency id. */
  clientId: string;
  /** The HTTP operationId, the gRPC method, the WebSocket command kind. */
  operation: string;
  roomId: string;
  /** Tells apart the several commands of one request (bulk playlist adds). */
  part?: number | undefined;
}

export function roomCommandId(id: ClientCommandId): string {
  const digest = createHash('sha256')
    .update([id.transport, subjectOf(id.caller), id.operation, id.roomId, id.clientId, id.part === undefined ? '' : String(id.part)].join('\0'))
    .digest('base64url');
  return `${id.transport}:${digest}`;
}
