/**
 * What every gateway (HTTP, WebSocket, gRPC) uses to reach rooms: a room command typed by its
 * kind, sent as the authenticated caller, answered with the actor's result and the room's
 * event seq. Gateways hold no room state; this is the only way they change a room, and so
 * the one place a caller's commands are held to their rates (room-rates.ts).
 */
import { randomBytes } from 'node:crypto';
import { actorCallerOf } from '../../accounts/index.js';
import type { Caller } from '../../accounts/index.js';
import { ROOM_ACTOR_TYPE, type RoomCommandKind, type RoomCommandOf, type RoomResultOf } from '../../actors/index.js';
import type { ActorClient, SendResult, TypedActorClient } from '../../actors/index.js';
import type { TraceFields } from '../../observability/index.js';
import type { RoomRates } from './room-rates.js';
import { AppError, isAppError } from '../../errors/index.js';
import { slowModeWaitMs } from '../../actors/index.js';

/**
 * The actor wire carries an error's code, message and issues, not its retry time: a room's own
 * rate refusal (slow mode) names the wait as the issue `retryAfterMs`, which becomes the
 * transports' Retry-After here, as the gateways' own rate limits give it.
 */
function withRoomRetryAfter(err: unknown): unknown {
  if (!isAppError(err) || err.retryAfterSeconds !== undefined) return err;
  const waitMs = slowModeWaitMs(err);
  if (waitMs === undefined) return err;
  return new AppError(err.code, err.message, err.issues, { retryAfterSeconds: waitMs / 1000, cause: err });
}

export interface RoomSendOptions {
  /** The client's idempotency key: a resend with the same id (through any gateway) runs once. */
  commandId?: string;
  /** The client's own send time (server-clock ms), for transit compensation of play/seek. */
  sentAt?: number;
  timeoutMs?: number;
  /**
   * Part of a client request already counted against the caller's rate (the later items of a
   * bulk playlist add): one request is one command for the rates, however many it sends.
   */
  counted?: boolean;
  /** The transport's span (its fields), which the actor send continues. */
  trace?: TraceFields;
}

/** Room ids are 16 random bytes in base64url: unguessable, since a hidden room is reachable by id alone. */
export function newRoomId(): string {
  return randomBytes(16).toString('base64url');
}

export class RoomClient {
  private readonly rooms: TypedActorClient;

  /** `rates`: the gateways' per-member limits; none for in-process tools and tests that drive rooms directly. */
  constructor(
    actors: ActorClient,
    private readonly rates?: Pick<RoomRates, 'command'>,
  ) {
    this.rooms = actors.forType(ROOM_ACTOR_TYPE);
  }

  /** A command of a client's caller: counted against the caller's rate in the room first. */
  async send<K extends RoomCommandKind>(
    roomId: string,
    command: RoomCommandOf<K> & { kind: K },
    caller: Caller,
    options: RoomSendOptions = {},
  ): Promise<SendResult<RoomResultOf<K>>> {
    if (!options.counted) await this.rates?.command(caller, roomId, command.kind);
    return this.rooms
      .send<RoomResultOf<K>>(roomId, command, {
        caller: actorCallerOf(caller),
        ...(options.commandId !== undefined ? { commandId: options.commandId } : {}),
        ...(options.sentAt !== undefined ? { sentAt: options.sentAt } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.trace ? { trace: options.trace } : {}),
      })
      .catch((err: unknown) => {
        throw withRoomRetryAfter(err);
      });
  }

  /**
   * A command sent as a room member known only by id, from a signed media grant (the media
   * proxy re-checking that the grant's holder is still a member). Guest or not comes from the
   * membership record, as for any caller already in the room.
   */
  sendAsMember<K extends RoomCommandKind>(roomId: string, command: RoomCommandOf<K> & { kind: K }, userId: string): Promise<SendResult<RoomResultOf<K>>> {
    return this.rooms.send<RoomResultOf<K>>(roomId, command, { caller: { userId } });
  }

  /** A command sent as the service itself (admin tools): every permission, never a member. */
  sendAsService<K extends RoomCommandKind>(
    roomId: string,
    command: RoomCommandOf<K> & { kind: K },
    actorName: string,
    options: RoomSendOptions = {},
  ): Promise<SendResult<RoomResultOf<K>>> {
    return this.rooms.send<RoomResultOf<K>>(roomId, command, {
      caller: { userId: `service:${actorName}`, name: actorName, service: true },
      ...(options.commandId !== undefined ? { commandId: options.commandId } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
  }
}
