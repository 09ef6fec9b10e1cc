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

/** Wait before rejoin attempt `attempt` (0-based): at once, then doubling from half a second, up to 8 s. */
export function rejoinDelayMs(attempt: number): number {
  return attempt === 0 ? 0 : Math.min(8_000, 500 * 2 ** (attempt - 1));
}
