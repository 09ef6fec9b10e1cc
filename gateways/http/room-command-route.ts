/**
 * An HTTP room route as a row of a table: the endpoint, the room command its request stands for,
 * and the answer made of the command's result. Every row enters through the room-command entry
 * (gateways/rooms/command-entry.ts) with the request's `Idempotency-Key` when the endpoint
 * declares one, so HTTP routes hold no room logic of their own.
 */
import type { Caller } from '../../accounts/index.js';
import type { RoomCommandKind, RoomCommandOf, RoomResultOf } from '../../actors/index.js';
import type { Endpoint } from '../../contracts/http/endpoint.js';
import type { RoomCommandEntry } from '../rooms/command-entry.js';
import type { EndpointInput, EndpointRouter } from './endpoint-router.js';
import type { HttpContext } from './state.js';

export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** An endpoint on one room (`{roomId}` in its path) that needs a caller. */
type RoomEndpoint = Endpoint & { access: 'user' | 'user_or_guest' };

export interface RoomCommandRow<E extends RoomEndpoint, K extends RoomCommandKind> {
  /** The command's fields from the request (its kind is the row's). */
  command: (input: EndpointInput<E>, ctx: HttpContext) => Omit<RoomCommandOf<K>, 'kind'>;
  /** The response body from the room's result and its event seq; undefined for no body. */
  answer: (result: RoomResultOf<K>, seq: number, ctx: HttpContext) => unknown;
  /** The success status when it is not 200. */
  status?: 201 | 204;
  /** The client's send time, for the playback commands' transit compensation. */
  sentAt?: (input: EndpointInput<E>) => number | undefined;
}

/** Mounts one row on a router. */
export type RoomRoute = (router: EndpointRouter, commands: RoomCommandEntry) => void;

export function roomCommand<E extends RoomEndpoint, K extends RoomCommandKind>(endpoint: E, kind: K, row: RoomCommandRow<E, K>): RoomRoute {
  const idempotent = endpoint.headers?.shape[IDEMPOTENCY_HEADER] !== undefined;
  return (router, commands) => {
    router.mount(endpoint, async (ctx, input) => {
      // A room endpoint's params hold the validated `roomId` and its access needs a caller.
      const { caller, params } = input as unknown as { caller: Caller; params: { roomId: string } };
      const { result, seq } = await commands.send<K>({
        transport: 'http',
        caller,
        roomId: params.roomId,
        command: { ...row.command(input, ctx), kind } as RoomCommandOf<K> & { kind: K },
        operation: endpoint.operationId,
        clientId: idempotent ? ctx.get(IDEMPOTENCY_HEADER) || undefined : undefined,
        sentAt: row.sentAt?.(input),
        trace: ctx.state.trace,
      });
      if (row.status !== undefined) ctx.status = row.status;
      const body = row.answer(result, seq, ctx);
      if (body !== undefined) ctx.body = body;
    });
  };
}

/** Mounts a table of rows. */
export function mountRoomCommands(router: EndpointRouter, commands: RoomCommandEntry, rows: readonly RoomRoute[]): void {
  for (const row of rows) row(router, commands);
}
