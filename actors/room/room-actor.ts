/**
 * The room as an actor type, made of parts: activation loads the room and every part's slice,
 * and each command passes the same gates before its handler runs — shape, guest switch,
 * existence and review state, membership — so a handler only decides what is particular to it
 * (its permission and its own rules). The table of handlers, timers and internal commands is
 * built once per host from the parts it is given (parts.ts).
 */
import { AppError } from '../../errors/index.js';
import type { Actor, ActorType, Caller, CommandMeta, DeactivationReason } from '../runtime/actor-type.js';
import { FencedError } from '../runtime/fencing.js';
import { isRoomCommandKind, type RoomCommandKind } from '../../contracts/room/commands.js';
import { parseRoomCommand } from './parse-command.js';
import { ROOM_ACTOR_TYPE, RoomCore, type HostShared, type RoomActorDeps, type Turn } from './core.js';
import type { Handler, InternalHandler, RoomPart, TimerHandler } from './part.js';
import { TIMER_KIND } from './timers.js';

/** What someone who is not an active member may send (the rest needs membership). */
const OPEN_TO_VISITORS: ReadonlySet<RoomCommandKind> = new Set(['room.get', 'member.join', 'member.leave', 'presence.leave', 'room.review']);
/** What a room rejected in review still answers, for its owner. */
const OPEN_WHEN_REJECTED: ReadonlySet<RoomCommandKind> = new Set(['room.get', 'room.delete', 'room.review', 'member.forget']);

/** The parts' handlers, timers and internal commands by name, built once per host. */
interface DispatchTable {
  handlers: ReadonlyMap<string, Handler<RoomCommandKind>>;
  timers: ReadonlyMap<string, TimerHandler>;
  internal: ReadonlyMap<string, InternalHandler>;
}

/** Adds `name` -> `value` to `into`, refusing a name two parts claim (a registry mistake, caught at start). */
function claim<V>(into: Map<string, V>, what: string, name: string, value: V, part: string): void {
  if (into.has(name)) throw new Error(`room part "${part}" declares ${what} "${name}", which another part already has`);
  into.set(name, value);
}

function dispatchTable(parts: readonly RoomPart[]): DispatchTable {
  const handlers = new Map<string, Handler<RoomCommandKind>>();
  const timers = new Map<string, TimerHandler>();
  const internal = new Map<string, InternalHandler>();
  for (const part of parts) {
    for (const [kind, handler] of Object.entries(part.handlers ?? {})) claim(handlers, 'the handler of', kind, handler as Handler<RoomCommandKind>, part.name);
    for (const [name, timer] of Object.entries(part.timers ?? {})) claim(timers, 'the timer', name, timer, part.name);
    for (const [kind, run] of Object.entries(part.internal ?? {})) claim(internal, 'the internal command', kind, run, part.name);
  }
  return { handlers, timers, internal };
}

class RoomActor implements Actor {
  constructor(
    private readonly core: RoomCore,
    private readonly table: DispatchTable,
  ) {}

  async handle(raw: unknown, caller: Caller, meta: CommandMeta): Promise<unknown> {
    const core = this.core;
    if (core.fenced) throw new FencedError(core.ctx.type, core.id, core.ctx.fence);
    const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
    if (kind === TIMER_KIND) {
      if (meta.scheduled !== true) throw new AppError('forbidden', 'timer commands are internal to the room');
      return this.onTimer(raw);
    }
    const internal = typeof kind === 'string' ? this.table.internal.get(kind) : undefined;
    if (internal) {
      if (meta.scheduled !== true) throw new AppError('forbidden', `${String(kind)} commands are internal to the room`);
      return internal(core, raw, meta);
    }

    const command = parseRoomCommand(raw);
    if (caller.guest === true && !core.deps.settings.get('user.enableGuest')) {
      throw new AppError('forbidden', 'guests cannot use rooms on this server (runtime setting user.enableGuest is off): sign in with an account');
    }
    const access = core.access(caller);
    const turn: Turn = { caller, meta, access, now: core.now() };

    if (command.kind !== 'room.create') {
      const current = core.room;
      // Only its owner (and the review workflow) can tell that a room under review exists.
      if (!current || (current.status !== 'active' && !access.isOwner && !access.service)) {
        throw new AppError('not_found', `room ${core.id} does not exist`);
      }
      if (current.status === 'rejected' && !OPEN_WHEN_REJECTED.has(command.kind)) {
        throw new AppError('conflict', 'this room was rejected in review; it can only be viewed or deleted');
      }
      if (!access.active && !OPEN_TO_VISITORS.has(command.kind)) {
        const status = access.member?.status;
        throw new AppError(
          'forbidden',
          status === 'pending'
            ? 'your join request is waiting for approval'
            : status === 'banned'
              ? 'you are banned from this room'
              : 'join the room first',
        );
      }
    }
    const handler = this.table.handlers.get(command.kind);
    // The registry proves every kind handled at compile time (parts.ts); this is its run-time twin.
    if (!handler) throw new AppError('internal', `no room part handles ${command.kind}`);
    return handler(core, command, turn);
  }

  private async onTimer(raw: unknown): Promise<{ timer: string | null }> {
    const name = this.core.timers.claim(raw);
    if (name !== null) await this.table.timers.get(name)?.(this.core);
    return { timer: name };
  }

  idle(): boolean {
    return this.core.presence.size === 0 && this.core.timers.size === 0 && !this.core.busy();
  }

  async deactivate(reason: DeactivationReason, signal: AbortSignal): Promise<void> {
    await this.core.deactivate(reason, signal);
  }
}

/** The `room` actor type made of `parts` (in hook order), to register with an actor host. */
export function roomActorType(deps: RoomActorDeps, parts: readonly RoomPart[]): ActorType {
  const table = dispatchTable(parts);
  // One of each per host: the writes of all its rooms share group commits.
  const shared = new Map<HostShared<unknown>, unknown>();
  for (const part of parts) for (const resource of part.shared ?? []) if (!shared.has(resource)) shared.set(resource, resource.create(deps));
  return {
    name: ROOM_ACTOR_TYPE,
    async activate(ctx) {
      return new RoomActor(await RoomCore.activate(deps, ctx, parts, shared), table);
    },
    commandKind: (command) => {
      const kind = typeof command === 'object' && command !== null ? (command as { kind?: unknown }).kind : undefined;
      return isRoomCommandKind(kind) ? kind : 'unknown';
    },
  };
}
