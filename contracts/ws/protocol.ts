/**
 * The realtime WebSocket protocol, version 1 (`svc.v1`): every message both ways, as zod
 * schemas, plus the names a client puts in `Sec-WebSocket-Protocol` and the close codes.
 * Rules, numbered, and the reasons: `docs/2026-11-23-realtime-protocol.md`.
 *
 * A leaf module: it imports zod, the error codes, the text rule and types only (erased at runtime), so a
 * browser client, the Node client (`client.ts`) and the gateway share one definition. The
 * constants and helpers without zod are in `constants.ts` (re-exported here), which a
 * browser bundle imports alone.
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import type { RoomCommand } from '../room/commands.js';
import type { RoomEvent } from '../room/events.js';
import type { MemberRoomView, PlayerState } from '../room/model.js';
import type { Notification } from '../notifications.js';

export * from './constants.js';

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
const RoomCommandShape = z.looseObject({ kind: oneLineText().min(1).max(64) });

export const CommandMessage = z.strictObject({
  type: z.literal('command'),
  id: ClientMessageId,
  command: RoomCommandShape,
  /** The client's send time on the server clock (client time + estimated offset), for play/seek transit compensation. */
  sentAt: ClientTime.optional(),
  /**
   * W3C trace context of the client's own span (optional, R20): the gateway's span of this
   * command, and every hop after it, continue that trace.
   */
  traceparent: z
    .string()
    .regex(/^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/, { error: 'must be a W3C traceparent: 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>, lower case' })
    .optional(),
  /** W3C `tracestate` to go with `traceparent`. */
  tracestate: z.string().max(512).optional(),
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
  mediaId: oneLineText().min(1).max(64).nullable(),
  /** The length of `mediaId` in seconds as the player saw it, once known (the room ends items by it). */
  duration: z.number().positive().max(ROOM_LIMITS.positionMaxSeconds).optional(),
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
  /** With `rate_limited`: how long to wait before sending again (HTTP's Retry-After, in ms). */
  retryAfterMs: z.number().int().positive().optional(),
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
  /** Why: `connect` (no resume asked), `resume_unavailable` (the missed events are no longer held), `reset` (the gateway lost its stream, or the room came back without what it held in memory). */
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
  seq: Seq.meta({ description: "The room's event sequence number: strictly increasing, not contiguous across reactivations" }),
  at: ServerTime.meta({ description: 'Server time the room published it (ms)' }),
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
