/**
 * The realtime WebSocket protocol, version 1 (`svc.v1`): every message both ways, as zod
 * schemas, plus the names a client puts in `Sec-WebSocket-Protocol` and the close codes.
 * Rules, numbered, and the reasons: `docs/2026-11-23-realtime-protocol.md`.
 *
 * A leaf module: it imports zod, the error codes and types only (erased at runtime), so a
 * browser client, the Node client (`client.ts`) and the gateway share one definition.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../../errors/codes.js';
import type { RoomCommand } from '../../actors/room/commands.js';
import type { RoomEvent } from '../../actors/room/events.js';
import type { MemberRoomView, PlayerState } from '../../actors/room/model.js';
import type { Notification } from '../../notifications/model.js';

/** The versions this build speaks, newest first. A client offers one or more. */
export const PROTOCOL_VERSIONS = ['svc.v1'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
export const CURRENT_PROTOCOL: ProtocolVersion = 'svc.v1';
/** Every version entry, known or not, looks like this; the server selects one of them. */
export const VERSION_ENTRY = /^svc\.v[1-9][0-9]{0,3}$/;
/** `ticket.<ticket>`: the single-use ticket from `POST /api/rooms/{roomId}/realtime/ticket`. */
export const TICKET_ENTRY_PREFIX = 'ticket.';
/** `resume.<seq>`: the last event seq the client has applied; it gets what came after. */
export const RESUME_ENTRY_PREFIX = 'resume.';

/** The socket of a room: `GET` with `Upgrade: websocket`. */
export const REALTIME_PATH = '/api/rooms/{roomId}/realtime';
export function realtimePath(roomId: string): string {
  return `/api/rooms/${encodeURIComponent(roomId)}/realtime`;
}
/** Where a signed-in member gets a ticket (an HTTP POST with the bearer token). */
export function ticketPath(roomId: string): string {
  return `/api/rooms/${encodeURIComponent(roomId)}/realtime/ticket`;
}

/** The `Sec-WebSocket-Protocol` entries for a connection (what `new WebSocket(url, protocols)` takes). */
export function connectProtocols(options: { ticket?: string; resumeAfter?: number; versions?: readonly string[] }): string[] {
  return [
    ...(options.versions ?? PROTOCOL_VERSIONS),
    ...(options.ticket !== undefined ? [`${TICKET_ENTRY_PREFIX}${options.ticket}`] : []),
    ...(options.resumeAfter !== undefined ? [`${RESUME_ENTRY_PREFIX}${options.resumeAfter}`] : []),
  ];
}

/**
 * Close codes the server uses (WebSocket close frames carry a code and a reason of at most
 * 123 bytes). 4xxx codes are ours; a client reconnects (new ticket, `resume.<seq>`) after
 * 1006/1012/4008, and not after 4403/4404/4426.
 */
export const CLOSE = {
  /** The gateway is shutting down or restarting: reconnect (to another replica) and resume. */
  serviceRestart: 1012,
  /** The client sent something that is not a protocol message, or a binary frame. */
  unsupportedData: 1003,
  /** The client stopped reading: its send buffer passed the limit (R14). */
  slowConsumer: 4008,
  /** No version offered in `Sec-WebSocket-Protocol` is spoken here (R2); the reason names ours. */
  unsupportedVersion: 4426,
  /** The member was kicked or banned, left, or otherwise lost active membership (R12). */
  membershipEnded: 4403,
  /** The room was deleted (R12). */
  roomDeleted: 4404,
} as const;
export type CloseCode = (typeof CLOSE)[keyof typeof CLOSE];

// ---------------------------------------------------------------------------------------------
// Client to server

/** A client's id for its request: echoed in `ok`/`error`, and its idempotency key (R6). */
export const ClientMessageId = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,64}$/, { error: 'must be 1..64 characters of A-Z, a-z, 0-9, "_", ".", ":" or "-"' });

/** Client clock, ms since the epoch (any finite number: only differences matter). */
const ClientTime = z.number().finite();

/**
 * A room command (any kind but `presence.*`, which the gateway sends itself). The shape is
 * checked by the room, which answers `invalid_argument` naming the field; here only `kind`.
 */
const RoomCommandShape = z.looseObject({ kind: z.string().min(1).max(64) });

export const CommandMessage = z.strictObject({
  type: z.literal('command'),
  id: ClientMessageId,
  command: RoomCommandShape,
  /** The client's send time on the server clock (client time + estimated offset), for play/seek transit compensation. */
  sentAt: ClientTime.optional(),
});

/** Clock sample: the server answers `pong` with `t0` and its own receive and send times. */
export const PingMessage = z.strictObject({
  type: z.literal('ping'),
  t0: ClientTime,
});

/** The client's player state, relayed to the room as `member.player` (R11). */
export const PlayerMessage = z.strictObject({
  type: z.literal('player'),
  /** Optional: with an id the server answers `ok`/`error`; without, failures are not reported. */
  id: ClientMessageId.optional(),
  state: z.enum(['buffering', 'ready', 'ended']),
  mediaId: z.string().min(1).max(64).nullable(),
});

export const ClientMessage = z.discriminatedUnion('type', [CommandMessage, PingMessage, PlayerMessage]);
export type ClientMessage = z.infer<typeof ClientMessage>;
/** What `CommandMessage` carries, typed as the room's commands for clients that build them. */
export type CommandMessageOf = Omit<z.infer<typeof CommandMessage>, 'command'> & { command: RoomCommand };

// ---------------------------------------------------------------------------------------------
// Server to client

export const ErrorShape = z.object({
  /** Correlates with the gateway's logs: the connection's request id and the message id. */
  requestId: z.string(),
  status: z.number().int(),
  code: z.enum(ERROR_CODES),
  message: z.string(),
  issues: z.array(z.object({ key: z.string(), message: z.string() })).optional(),
});
export type ErrorShape = z.infer<typeof ErrorShape>;

const object = <T>() => z.custom<T>((value) => typeof value === 'object' && value !== null);
const Seq = z.number().int().nonnegative();
const ServerTime = z.number().int();

/**
 * The room as this member sees it (`presence.enter`'s answer): room, members, playlist,
 * playback, and `seq`, the last event it reflects (R3). Sent on connect, and again whenever
 * events cannot be continued (R8, R9).
 */
export const SnapshotMessage = z.object({
  type: z.literal('snapshot'),
  /** Why: `connect` (no resume asked), `resume_unavailable` (the missed events are no longer held), `reset` (the gateway lost its stream). */
  reason: z.enum(['connect', 'resume_unavailable', 'reset']),
  connectionId: z.string(),
  seq: Seq,
  view: object<MemberRoomView>(),
  serverTime: ServerTime,
});

/** The resume worked: exactly the events after `after` follow as `event` messages (R7). */
export const ResumedMessage = z.object({
  type: z.literal('resumed'),
  connectionId: z.string(),
  /** The seq the client asked to resume after. */
  after: Seq,
  /** The room's seq the client is current with once the missed events are applied (events this member may not see are skipped, so it can be above the last one sent). */
  seq: Seq,
  /** How many `event` messages follow at once. */
  missed: z.number().int().nonnegative(),
  serverTime: ServerTime,
});

/** One room event, in seq order; seqs only grow (R5). */
export const EventMessage = z.object({
  type: z.literal('event'),
  seq: Seq,
  /** Server time the room published it. */
  at: ServerTime,
  event: object<RoomEvent>(),
});

export const OkMessage = z.object({
  type: z.literal('ok'),
  id: ClientMessageId,
  result: z.unknown(),
  /** The room's seq when it answered: the result reflects every event up to it. */
  seq: Seq,
});

export const ErrorMessage = z.object({
  type: z.literal('error'),
  /** The client message's id; null when the message had none or could not be read. */
  id: ClientMessageId.nullable(),
  error: ErrorShape,
});

/** NTP-style clock sample (R10): t0 echoed, t1 server receive, t2 server send. */
export const PongMessage = z.object({
  type: z.literal('pong'),
  t0: ClientTime,
  t1: ServerTime,
  t2: ServerTime,
});

export const NotificationMessage = z.object({
  type: z.literal('notification'),
  notification: object<Notification>(),
});

export const ServerMessage = z.discriminatedUnion('type', [
  SnapshotMessage,
  ResumedMessage,
  EventMessage,
  OkMessage,
  ErrorMessage,
  PongMessage,
  NotificationMessage,
]);
export type ServerMessage = z.infer<typeof ServerMessage>;
export type SnapshotMessage = z.infer<typeof SnapshotMessage>;
export type ResumedMessage = z.infer<typeof ResumedMessage>;
export type EventMessage = z.infer<typeof EventMessage>;
export type OkMessage = z.infer<typeof OkMessage>;
export type ErrorMessage = z.infer<typeof ErrorMessage>;
export type PongMessage = z.infer<typeof PongMessage>;
export type NotificationMessage = z.infer<typeof NotificationMessage>;
export type { PlayerState };

/** Command kinds the gateway sends on the socket's behalf and a client may not (R6). */
export const GATEWAY_OWNED_KINDS: readonly string[] = ['presence.enter', 'presence.refresh', 'presence.leave'];

/**
 * The clock offset and round trip of one sample (R10), t3 being the client's receive time:
 * offset = ((t1 - t0) + (t2 - t3)) / 2 (server clock minus client clock),
 * rtt = (t3 - t0) - (t2 - t1). Of several samples the one with the smallest rtt is the best.
 */
export function clockSample(pong: Pick<PongMessage, 't0' | 't1' | 't2'>, t3: number): { offset: number; rtt: number } {
  return { offset: (pong.t1 - pong.t0 + (pong.t2 - t3)) / 2, rtt: t3 - pong.t0 - (pong.t2 - pong.t1) };
}
