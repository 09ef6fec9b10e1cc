/**
 * RoomDecisions over the actor runtime: the decision reaches the room actor as
 * `room.review {approve}` from a service caller, wherever the room lives. The room answers a
 * repeated decision with the room as it is, and the command id is the same on every attempt
 * of one decision, so a retry by Temporal never applies anything twice.
 */
import { ROOM_ACTOR_TYPE } from '../../actors/client.js';
import type { ActorClient } from '../../actors/index.js';
import type { Caller } from '../../actors/index.js';
import type { Logger } from '../../observability/index.js';
import type { RoomDecisions } from '../decisions.js';

/** The caller the room sees; `service` is what lets it send `room.review`. */
export const ROOM_REVIEW_CALLER: Caller = { userId: 'workflow:room-review', service: true };
/** Below the activity's 30 s start-to-close, so a slow room fails the attempt cleanly. */
const SEND_TIMEOUT_MS = 20_000;

export function actorRoomDecisions(actors: ActorClient, logger: Logger): RoomDecisions {
  return {
    async decide({ roomId, approve, reviewer, reason }) {
      await actors.send(
        ROOM_ACTOR_TYPE,
        roomId,
        { kind: 'room.review', approve },
        { caller: ROOM_REVIEW_CALLER, timeoutMs: SEND_TIMEOUT_MS, commandId: `room-review:${roomId}:${approve ? 'approve' : 'reject'}` },
      );
      // The room command has no place for who decided and why; the log and the workflow history keep it.
      logger.info({ roomId, approve, reviewer, reason }, 'room review applied');
    },
  };
}
