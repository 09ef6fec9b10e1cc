/**
 * What the call does when LiveKit says it is over (a `Disconnected` event and its reason). The
 * person leaving, or the same person joining from another tab, ends it; anything else (the SFU
 * node died, the signal connection closed, the SFU restarted or moved the room) means the call
 * should go on: the client asks the service for a new grant, which may name another node, and
 * joins again. Pure: the reasons are LiveKit's DisconnectReason numbers (livekit protocol).
 */

/** LiveKit's DisconnectReason values the decision reads (@livekit/protocol). */
export const DISCONNECT = {
  UNKNOWN_REASON: 0,
  CLIENT_INITIATED: 1,
  DUPLICATE_IDENTITY: 2,
  SERVER_SHUTDOWN: 3,
  PARTICIPANT_REMOVED: 4,
  ROOM_DELETED: 5,
} as const;

export type AfterDisconnect =
  /** We left: nothing to do. */
  | 'ended'
  /** The same member joined the call from another tab or device: this one steps aside. */
  | 'elsewhere'
  /** The service took us out (kicked, banned, lost a permission): say so, do not fight it. */
  | 'removed'
  /** The call lost its server: fetch a grant and join again. */
  | 'rejoin';

export function afterDisconnect(reason: number | undefined): AfterDisconnect {
  switch (reason) {
    case DISCONNECT.CLIENT_INITIATED:
      return 'ended';
    case DISCONNECT.DUPLICATE_IDENTITY:
      return 'elsewhere';
    case DISCONNECT.PARTICIPANT_REMOVED:
      return 'removed';
    default:
      return 'rejoin';
  }
}

/** Attempts to join again before the call gives up and says so. */
export const REJOIN_ATTEMPTS = 6;

/**
 * Wait before rejoin attempt `attempt` (0-based): the first three at once (each gives up its join
 * sooner than the next, rejoinTimeoutMs), then doubling from a second, up to 8 s.
 */
export function rejoinDelayMs(attempt: number): number {
  return attempt < 3 ? 0 : Math.min(8_000, 1_000 * 2 ** (attempt - 3));
}

/**
 * How long one rejoin attempt waits for the SFU to accept the join before giving it up and asking
 * again: a second at first, doubling (a slow network gets its time on later attempts). A join
 * sent while the SFU still counts the dead node waits there for seconds, while a new one is placed
 * on a live node as soon as the dead one is given up (docs/2026-11-29-sfu-deployment.md measured
 * 2.5-4.2 s from the kill when a client gives up after 0.5-1 s, 6 s when it waits).
 */
export function rejoinTimeoutMs(attempt: number): number {
  return Math.min(15_000, 1_000 * 2 ** attempt);
}

/**
 * LiveKit's own reconnection first (it resumes a call over a network change without a new
 * grant): a few quick tries within OWN_RECONNECT_MS, then null, and the call ends with a reason
 * the client answers with a new grant (a dead node is not coming back).
 */
export const OWN_RECONNECT_MS = 3_000;
const OWN_RECONNECT_DELAYS = [0, 300, 1_200];

export function ownReconnectDelayMs(retryCount: number, elapsedMs: number): number | null {
  if (elapsedMs >= OWN_RECONNECT_MS) return null;
  return OWN_RECONNECT_DELAYS[retryCount] ?? null;
}

/**
 * How the client notices a dead node sooner than LiveKit does. The signalling socket goes to a
 * node that relays to the room's node, so it stays up; ICE marks the connection disconnected
 * only after 5-6 s without answers, and LiveKit's own resume then waits on the relay another 5 s
 * (measured: 10.8-12.6 s from the kill to a new connection, test/web/e2e/call-failover.test.ts).
 * Every received voice that is not muted sends packets continually (at least every 400 ms with
 * DTX; a shared tab's sound, without DTX, every 20 ms), so when all of them stop for
 * SILENCE_LOST_MS the link gives its room up and joins again (video does not count: a still
 * screen sends nothing); and LiveKit's own resume gets OWN_RESUME_MS before the same. Measured
 * with this: 6.1 s from the kill to hearing again, of which detection 2.2-2.8 s and LiveKit's
 * placement (it gives a dead node up once its stats are 5 s old) the rest.
 */
export const SILENCE_LOST_MS = 2_000;
export const OWN_RESUME_MS = 1_500;

/** A received track's packet count and when it last moved (local ms). */
export interface Flow {
  packets: number;
  movedAt: number;
}

/** Updates `flow` with a new packet count read at `now`. */
export function noteFlow(flow: Flow | undefined, packets: number, now: number): Flow {
  return flow && flow.packets === packets ? flow : { packets, movedAt: now };
}

/** Whether the link has gone silent: it receives tracks, and none has moved for SILENCE_LOST_MS. */
export function gone(flows: readonly Flow[], now: number): boolean {
  return flows.length > 0 && flows.every((flow) => now - flow.movedAt >= SILENCE_LOST_MS);
}
