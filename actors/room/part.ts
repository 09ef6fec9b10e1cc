/**
 * What one concern of the room declares, in the spirit of rivetkit's `actor({state, actions,
 * onConnect…})` on top of the room's own fencing: its state slices, how it loads and what it
 * writes with others' changes, what it adds to the views, its command handlers, its timers and
 * internal commands, and the lifecycle hooks it reacts to (core.ts `PartHooks`). Each concern
 * folder exports exactly one part; parts.ts registers them, one line each, in hook order.
 */
import type { RoomCommandKind, RoomCommandOf } from '../../contracts/room/commands.js';
import type { RoomResults } from '../../contracts/room/results.js';
import type { CommandMeta } from '../runtime/actor-type.js';
import type { HostShared, PartHooks, RoomCore } from './core.js';
import type { Turn } from './turn.js';

/** Runs one command kind after the gates every command passes (room-actor.ts). */
export type Handler<K extends RoomCommandKind> = (core: RoomCore, command: RoomCommandOf<K>, turn: Turn) => Promise<RoomResults[K]>;

/** A part's handlers, by the command kinds it owns; a kind belongs to exactly one part. */
export type PartHandlers = { readonly [K in RoomCommandKind]?: Handler<K> };

/** A timer the part schedules on its activation (`core.timers.schedule(name, ms)`), run in a turn like a command. */
export type TimerHandler = (core: RoomCore) => Promise<void> | void;

/** A command the activation schedules to itself (a finished probe, say): accepted only from the runtime's scheduler. */
export type InternalHandler = (core: RoomCore, raw: unknown, meta: CommandMeta) => Promise<unknown>;

export interface RoomPart<H extends PartHandlers = PartHandlers> extends PartHooks {
  /** Its folder's name, for messages and the registry. */
  readonly name: string;
  readonly handlers?: H;
  /** By timer name; names are unique across the parts. */
  readonly timers?: Readonly<Record<string, TimerHandler>>;
  /** By command kind; kinds are not room commands (contracts/room/commands.ts), unique across the parts. */
  readonly internal?: Readonly<Record<string, InternalHandler>>;
  /** What the part shares among the rooms of a host, made once per actor type. */
  readonly shared?: readonly HostShared<unknown>[];
}

/**
 * Declares a part; its handlers keep their kinds in the type, so the registry can prove every
 * command kind handled (parts.ts), and a kind that is no room command does not compile.
 */
export function roomPart<const H extends PartHandlers & Record<Exclude<keyof H, RoomCommandKind>, never>>(part: RoomPart<H>): RoomPart<H> {
  return part;
}
