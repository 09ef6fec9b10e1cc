/**
 * The contract between the virtual-actor runtime (`actors/runtime/`) and an actor type such
 * as the room (`actors/room/`). The runtime owns addressing, placement, the lease, the
 * mailbox and event sequencing; an actor type owns only its state and its command handling.
 */
import type { Logger } from '../../observability/index.js';
import type { TraceFields } from '../../observability/index.js';
import type { RecordedCommand } from './command-log.js';

/** Who sends a command, as asserted by the gateway that authenticated the client. */
export interface Caller {
  /** Stable user id; guests get an id of their own from the gateway. */
  userId: string;
  /** Display name, for chat and member lists. */
  name?: string;
  guest?: boolean;
  /** Internal callers (workflows, admin tools) that bypass room permissions. */
  service?: boolean;
}

/** A command as it travels on `<prefix>.<type>.<id>.cmd`. */
export interface CommandEnvelope<C = unknown> {
  /**
   * Protocol version (`PROTOCOL_VERSION` in wire.ts); missing means 1. A host answers an
   * unknown version with a final `unavailable` error.
   */
  v?: number;
  /**
   * Unique per logical command of its caller and the same on every retry of it, so a retry of
   * a command whose reply was lost gets the original reply instead of a second execution. A
   * host remembers replies by id and caller together (command-key.ts).
   */
  id: string;
  command: C;
  caller: Caller;
  /** Client wall-clock send time in ms (optional), for transit compensation. */
  sentAt?: number;
  /** Absolute deadline in ms since epoch; the runtime drops commands already past it. */
  deadline: number;
  /**
   * W3C trace context of the sender's span (optional, additive in v1): the host runs the turn
   * in a span continuing it. Ignored when missing or malformed (docs/2026-11-26-tracing.md).
   */
  traceparent?: string;
  tracestate?: string;
}

/** The reply to a command: a value or a typed error (codes of `errors/app-error.ts`). */
export type CommandReply<R = unknown> =
  | { ok: true; result: R; seq: number }
  | {
      ok: false;
      error: { code: string; message: string; issues?: Array<{ key: string; message: string }> };
      /**
       * Set when this host did not execute the command and another activation should: the
       * client re-resolves the actor (through `activate`) after this many ms. Never set on a
       * typed error of the actor itself.
       */
      retryAfterMs?: number;
    };

/** An event as published on `<prefix>.<type>.<id>.evt`. */
export interface EventEnvelope<E = unknown> {
  /** Protocol version (`PROTOCOL_VERSION` in wire.ts); missing means 1. Subscribers drop unknown versions. */
  v?: number;
  /** Monotonic per actor id across activations (see `docs/…-actor-runtime.md`). */
  seq: number;
  /** Server wall clock (ms since epoch) when the event was produced. */
  at: number;
  event: E;
  /** W3C trace context of the turn that published it (optional, additive in v1), for the fan-out's span. */
  traceparent?: string;
  tracestate?: string;
}

/** What the runtime gives an activation. */
export interface ActivationContext {
  readonly type: string;
  readonly id: string;
  /**
   * The activation before this one never released the id (its host crashed, lost its lease or
   * was fenced): what it kept in memory is gone, and its subscribers may still hold it.
   */
  readonly inherited?: boolean;
  /**
   * The lease revision of this activation: the fencing token every durable write of this
   * actor's state must carry. Strictly greater than any earlier activation's token. It can
   * grow during an activation (the runtime renews the lease when the event counter of one
   * fence runs out), so read it at each write rather than caching it.
   */
  readonly fence: bigint;
  readonly logger: Logger;
  /**
   * The W3C trace context of the command turn running now, when its trace is recorded: durable
   * writes pass it on (Fence.trace) so their spans join the command's trace. Events carry it
   * already.
   */
  readonly trace: TraceFields | undefined;
  /** Publishes an event to every subscriber of this actor; returns its seq. */
  publish(event: unknown): number;
  /** The seq the next published event will get minus one (for snapshots). */
  currentSeq(): number;
  /** Schedules a command to itself after `ms` (timers stay turn-based). */
  schedule(ms: number, command: unknown): { cancel(): void };
  /** Called by the actor when it finds it has been fenced (a durable write was refused). */
  fenced(reason: string): void;
  /**
   * Hands the runtime the replies of durable commands recorded by earlier activations
   * (`loadRecentCommands` in command-log.ts, read in the load transaction): a retry of one of
   * them is answered with its reply instead of running again. Call it from `activate`.
   */
  rememberReplies(commands: readonly RecordedCommand[]): void;
}

/**
 * Why an activation ends: `idle` passivation, host `drain` (SIGTERM), `fenced` (a newer
 * activation exists: a write under this one's fence was refused, or the liveness was lost while
 * it loaded), `lease-lost` (this host lost its liveness: another host may own the actor by now,
 * so nothing may be published, but a write under this activation's fence is still safe, as the
 * database refuses it once a newer activation has claimed), `shutdown` (the host stopped abruptly).
 */
export type DeactivationReason = 'idle' | 'drain' | 'fenced' | 'lease-lost' | 'shutdown';

/** What the runtime knows about a command besides its body and caller. */
export interface CommandMeta {
  /** Client wall-clock send time in ms, when the client gave one. */
  sentAt?: number;
  /** Server wall clock (ms since epoch) when this host received the command. */
  receivedAt: number;
  /**
   * The envelope id scoped to its caller (command-key.ts): identical on every retry of one
   * logical command, also across a failover to another host, and never the same for two
   * callers. A durable write keyed by it (a unique column) is applied at most once.
   * Commands from `ctx.schedule` get a fresh id each.
   */
  commandId: string;
  /**
   * The envelope deadline (ms since epoch); a retry is never served after it. A durable
   * command records its reply until then (`recordCommand` in command-log.ts).
   */
  deadline: number;
  /** True for a command the actor scheduled to itself with `ctx.schedule`. */
  scheduled?: boolean;
}

/** One live activation of an actor. Methods are never called concurrently (turn-based). */
export interface Actor {
  /** Handles one command; throws AppError for typed failures. */
  handle(command: unknown, caller: Caller, meta: CommandMeta): Promise<unknown>;
  /** True when the actor may be passivated (no members, no pending work). */
  idle(): boolean;
  /**
   * Persists what must survive and releases resources; called before the lease is released.
   * `signal` aborts when the host stops waiting for it (the drain's time ran out, or the host
   * was stopped or lost its liveness): retry failed saves until then, not beyond.
   */
  deactivate(reason: DeactivationReason, signal: AbortSignal): Promise<void>;
}

/** An actor type registered with a host. */
export interface ActorType {
  /** Subject segment, e.g. `room`. */
  readonly name: string;
  /**
   * Loads state and returns the activation. Load inside `withFence(…, ctx.fence, …)` so the
   * token is claimed before the first command: from then on a write still in flight from an
   * older activation (a paused host) is refused instead of landing under the state just read.
   */
  activate(ctx: ActivationContext): Promise<Actor>;
  /**
   * The metric label of a command: its kind from the type's closed set (an unknown one maps
   * to a fixed value), so a caller cannot grow the series. Without it every command is `other`.
   */
  commandKind?(command: unknown): string;
}
