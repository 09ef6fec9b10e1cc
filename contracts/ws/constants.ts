/**
 * The parts of the realtime protocol (`protocol.ts`) that are plain values: versions, the
 * `Sec-WebSocket-Protocol` entries, paths, close codes and the clock formula. No zod, so the
 * browser client imports them without bundling the schemas.
 */
/** The versions this build speaks, newest first. A client offers one or more. */
export const PROTOCOL_VERSIONS = ['svc.v1'] as const;
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number];
/** Every version entry, known or not, looks like this; the server selects one of them. */
export const VERSION_ENTRY = /^svc\.v[1-9][0-9]{0,3}$/;
/** `ticket.<ticket>`: the single-use ticket from `POST /api/rooms/{roomId}/realtime/ticket`. */
export const TICKET_ENTRY_PREFIX = 'ticket.';
/** `resume.<seq>`: the last event seq the client has applied; it gets what came after. */
export const RESUME_ENTRY_PREFIX = 'resume.';

/** The socket of a room: `GET` with `Upgrade: websocket`. */
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
 * 1006/1012/4008, and not after 4401/4403/4404/4426.
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
  /**
   * The session that opened the socket ended: signed out (here or everywhere), password changed
   * or reset, account banned, guest access turned off. The reason says which; sign in again.
   */
  sessionEnded: 4401,
  /** The member was kicked or banned, left, or otherwise lost active membership (R12). */
  membershipEnded: 4403,
  /** The room was deleted (R12). */
  roomDeleted: 4404,
  /** The client went on sending commands refused as `rate_limited` (reconnect after a pause). */
  flooding: 4429,
} as const;
export type CloseCode = (typeof CLOSE)[keyof typeof CLOSE];

/**
 * Command kinds the gateway sends on the socket's behalf and a client may not (R6).
 * `playlist.playable` answers an item's upstream address and headers to the gateways that turn
 * it into play info or a proxy link; a guest asking it directly would read the upstream secrets
 * of a proxied item (docs/2026-11-26-guests-watch.md). `call.admit` answers what the caller may
 * publish in the SFU call, which the call endpoint signs into a token; it changes the room's call
 * seats, so only that endpoint sends it (docs/2026-11-29-sfu.md).
 */
export const GATEWAY_OWNED_KINDS: readonly string[] = ['presence.enter', 'presence.refresh', 'presence.leave', 'playlist.playable', 'call.admit'];

/**
 * The clock offset and round trip of one sample (R10), t3 being the client's receive time:
 * offset = ((t1 - t0) + (t2 - t3)) / 2 (server clock minus client clock),
 * rtt = (t3 - t0) - (t2 - t1). Of several samples the one with the smallest rtt is the best.
 */
export function clockSample(pong: { t0: number; t1: number; t2: number }, t3: number): { offset: number; rtt: number } {
  return { offset: (pong.t1 - pong.t0 + (pong.t2 - t3)) / 2, rtt: t3 - pong.t0 - (pong.t2 - pong.t1) };
}
