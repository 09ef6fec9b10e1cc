/**
 * The gateways' way to talk to actors: `send` a command to `(type, id)` and get its result or
 * typed error, wherever the actor lives, within a deadline.
 *
 * Callers never name a host. A command goes to the actor's command subject; when nobody
 * answers (no activation, a dead or paused owner, a host draining) the client asks the host
 * pool to activate the actor and tries again, with the same envelope id, until the deadline.
 * The id lets the activation answer a retry of a command it already ran with the same reply.
 *
 * Sends that need the same actor resolved at the same time share one activate request: when a
 * host with hundreds of actors dies or falls behind, every command in flight to them would
 * otherwise ask the pool separately, and those requests (each one KV work on a host) arrive
 * exactly when the pool has least room for them.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { NatsConnection } from 'nats';
import { AppError, httpStatusOf, type ErrorCode } from '../../errors/index.js';
import { commandKindOf, inSpan, SpanKind, tracingEnabled, type TraceFields } from '../../observability/index.js';
import type { Caller, CommandEnvelope } from './actor-type.js';
import { activateSubject, assertActorId, assertTypeName, commandSubject } from './names.js';
import { isConnectionGone, isNoResponders, isRequestTimeout, messageOf } from './nats-errors.js';
import { hedged } from './hedged-request.js';
import { Requester } from './requester.js';
import { bytesOverLimit, decode, encode, parseActivateReply, parseCommandReply, PROTOCOL_VERSION } from './wire.js';

export interface SendOptions {
  /** Who sends it, as the gateway authenticated them. */
  caller: Caller;
  /** Overall deadline for the result, retries included. Default 5000. */
  timeoutMs?: number;
  /** The client's own send time (ms since epoch), for transit compensation by the actor. */
  sentAt?: number;
  /**
   * The command's id (default: a new UUID). Sending again with the same id, within the first
   * send's deadline, is a retry: the actor answers it with the first execution's reply instead
   * of running it twice (for durable commands across activations too). A gateway can pass a
   * client's request id here so that a resend through another gateway is recognised.
   */
  commandId?: string;
  /** The caller's trace (its span's fields), which this send's span continues. */
  trace?: TraceFields | undefined;
}

export interface SendResult<R> {
  result: R;
  /** The actor's event seq when it answered: events up to it are reflected in `result`. */
  seq: number;
}

export interface ActorClientOptions {
  /** Wait for the first reply before re-resolving the actor; doubles after each expiry, up to 2000. Default 250. */
  tryTimeoutMs?: number;
  /** Longest pause before retrying after a "retry later" answer. Default 100. */
  retryPauseMs?: number;
}

/** A client bound to one actor type, e.g. `rooms.send(roomId, command)`. */
export interface TypedActorClient {
  readonly type: string;
  send<R = unknown>(id: string, command: unknown, options: SendOptions): Promise<SendResult<R>>;
}

const DEFAULT_TIMEOUT_MS = 5_000;
/** The longest envelope id hosts accept (wire.ts). */
const MAX_COMMAND_ID_LENGTH = 200;
/** Per-try timeouts double after each one that expires, up to this. */
const MAX_TRY_TIMEOUT_MS = 2_000;
/** After an owner did not answer: ask the pool again this long after its lease may have ended. */
const LEASE_END_SLACK_MS = 50;

type ActivationOutcome =
  | { kind: 'active' }
  /** A live host owns the actor: its command subject should answer. `freeInMs`: when its lease may end, as the pool sees it. */
  | { kind: 'owned'; reason: string; retryAfterMs: number; freeInMs: number }
  | { kind: 'refused'; reason: string; retryAfterMs: number }
  | { kind: 'no-hosts'; retryAfterMs: number }
  /** No answer within the try timeout. */
  | { kind: 'timed-out' }
  | { kind: 'gone' };

export class ActorClient {
  private readonly tryTimeoutMs: number;
  private readonly retryPauseMs: number;
  private readonly requester: Requester;
  /** Activate requests in flight, by activate subject and actor id. */
  private readonly resolving = new Map<string, Promise<ActivationOutcome>>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    options: ActorClientOptions = {},
  ) {
    this.requester = new Requester(nc);
    this.tryTimeoutMs = options.tryTimeoutMs ?? 250;
    this.retryPauseMs = options.retryPauseMs ?? 100;
  }

  forType(type: string): TypedActorClient {
    assertTypeName(type);
    return { type, send: (id, command, options) => this.send(type, id, command, options) };
  }

  /**
   * Sends one command and resolves with the actor's result. Rejects with the actor's own
   * AppError (final, never retried, `busy` included), `invalid_argument` for a bad type or id,
   * `deadline_exceeded` when the command may have reached an actor that did not answer in
   * time, or `unavailable` when no host could take the actor before the deadline.
   */
  send<R = unknown>(type: string, id: string, command: unknown, options: SendOptions): Promise<SendResult<R>> {
    if (!tracingEnabled()) return this.sendTraced<R>(type, id, command, options, undefined);
    const attributes = () => ({ 'svc.actor.type': type, 'svc.actor.id': id, 'svc.command.kind': commandKindOf(command) });
    return inSpan(`actor.send ${type}`, { kind: SpanKind.CLIENT, parent: options.trace, attributes }, (traced) =>
      this.sendTraced<R>(type, id, command, options, traced?.fields),
    );
  }

  /** send() inside its span, whose context (`trace`) the envelope carries to the host. */
  private async sendTraced<R>(type: string, id: string, command: unknown, options: SendOptions, trace: TraceFields | undefined): Promise<SendResult<R>> {
    assertTypeName(type);
    assertActorId(id);
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const deadline = Date.now() + timeoutMs;
    if (options.commandId !== undefined && (options.commandId.length === 0 || options.commandId.length > MAX_COMMAND_ID_LENGTH)) {
      throw AppError.invalid([{ key: 'commandId', message: `must be 1..${MAX_COMMAND_ID_LENGTH} characters` }]);
    }
    const envelope: CommandEnvelope = {
      v: PROTOCOL_VERSION,
      id: options.commandId ?? randomUUID(),
      command,
      caller: options.caller,
      deadline,
      ...(options.sentAt !== undefined ? { sentAt: options.sentAt } : {}),
      ...trace,
    };
    let payload: string;
    try {
      payload = encode(envelope);
    } catch {
      throw AppError.invalid([{ key: 'command', message: 'must be JSON-serialisable' }]);
    }
    // NATS would refuse it on every try until the deadline; say so at once.
    const bytes = bytesOverLimit(payload, this.nc.info?.max_payload);
    if (bytes !== undefined) {
      throw AppError.invalid([{ key: 'command', message: `is ${bytes} bytes with its envelope, over the NATS max_payload of ${this.nc.info?.max_payload} bytes` }]);
    }
    const cmd = commandSubject(this.prefix, type, id);
    const activate = activateSubject(this.prefix, type);

    let resolve = false;
    // A live owner elsewhere was reported before: pause before trying it again.
    let ownerReported = false;
    // Whether some try may have reached an activation (decides the final error's code).
    let maybeDelivered = false;
    let lastProblem = 'no attempt finished';
    // An owner that is slow rather than gone (an overloaded host) gets each command again
    // after every try timeout; doubling it keeps those duplicates from adding to its load.
    let tryMs = this.tryTimeoutMs;
    // An owner that did not answer and may lose its lease soon (paused, or dead without closing
    // its connection): the next try lasts until the pool may take the actor over, neither
    // longer (a whole lengthened try on a host that cannot answer) nor shorter (asking the pool
    // again before the lease can have ended only costs a round trip, a paused host's share of
    // the activate requests included: measured, that made stall failover p99 2.5 s).
    let untilLeaseEnd: number | undefined;
    let lastTryTimedOut = false;
    // Some try of this send went unanswered: a paused host may hold a place in the pool's queue
    // group, so every activate request from then on is hedged (hedged-request.ts). Not only the
    // one right after: when two copies reach two live hosts, the loser answers who won before the
    // winner subscribed, the next try finds no responders, and its activate request would go out
    // alone (one time in three to the paused host, to wait out a whole try).
    let ownerWentSilent = false;
    const tryTimeout = (): number => Math.max(1, Math.min(deadline - Date.now(), untilLeaseEnd ?? tryMs));
    const lengthenTries = (): void => {
      tryMs = Math.min(tryMs * 2, MAX_TRY_TIMEOUT_MS);
    };
    const pause = (ms: number) => (ms > 0 ? sleep(Math.min(ms, Math.max(0, deadline - Date.now()))) : undefined);

    for (;;) {
      if (Date.now() >= deadline) {
        const code: ErrorCode = maybeDelivered ? 'deadline_exceeded' : 'unavailable';
        throw new AppError(code, `${type} ${id}: no reply within ${timeoutMs} ms (${lastProblem})`);
      }

      if (resolve) {
        // Not lengthened: a paused host still in the pool's queue group gets its share of
        // activate requests, and any other host answers one in a few ms (an owned actor at once).
        // Hedged only once an owner did not answer: then a paused host may hold a place in the
        // pool's queue group; a first activation that is merely slow needs one request.
        const outcome = await this.resolveActor(activate, id, Math.min(tryTimeout(), this.tryTimeoutMs * 2), ownerWentSilent);
        if (outcome.kind === 'gone') throw new AppError('unavailable', `${type} ${id}: NATS connection closed`);
        if (outcome.kind === 'active') {
          resolve = false;
        } else if (outcome.kind === 'timed-out') {
          // The try has used its time already: ask again at once (likely another host).
          lastProblem = 'activation timed out';
        } else {
          lastProblem = outcome.kind === 'no-hosts' ? `no ${type} host is running` : outcome.reason;
          if (outcome.kind === 'owned') {
            // Another host owns it: its command subject answers unless it is dead (then the
            // next report comes after a pause, until its lease expires and the id is free).
            // After a try that timed out, that try waits for the lease end instead.
            if (ownerReported && !lastTryTimedOut) await pause(outcome.retryAfterMs);
            ownerReported = true;
            resolve = false;
            if (lastTryTimedOut) untilLeaseEnd = outcome.freeInMs + LEASE_END_SLACK_MS;
          } else {
            await pause(outcome.retryAfterMs);
          }
        }
        if (resolve) continue;
      }

      try {
        const thisTry = tryTimeout();
        untilLeaseEnd = undefined;
        lastTryTimedOut = false;
        const msg = await this.requester.request(cmd, payload, thisTry);
        const reply = parseCommandReply(decode(msg.data));
        if (!reply) {
          lastProblem = 'malformed command reply';
          maybeDelivered = true;
          resolve = true;
          continue;
        }
        if (reply.ok) return { result: reply.result as R, seq: reply.seq };
        if (reply.retryAfterMs !== undefined) {
          // The activation that got it ended (moved, draining, fenced) without running it.
          lastProblem = reply.error.message;
          resolve = true;
          await pause(Math.min(reply.retryAfterMs, this.retryPauseMs));
          continue;
        }
        throw new AppError(knownCode(reply.error.code), reply.error.message, reply.error.issues ?? []);
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (isConnectionGone(err)) throw new AppError('unavailable', `${type} ${id}: NATS connection closed`);
        resolve = true;
        if (isNoResponders(err)) {
          lastProblem = 'not active anywhere';
        } else if (isRequestTimeout(err)) {
          // The owner may be paused, dead without having closed its connection, or just slow.
          lastProblem = 'the owner did not answer';
          maybeDelivered = true;
          lastTryTimedOut = true;
          ownerWentSilent = true;
          lengthenTries();
        } else {
          lastProblem = messageOf(err);
          await pause(this.retryPauseMs);
        }
      }
    }
  }

  /**
   * The outcome of the activate request for `id` in flight from this client, or of a new one.
   * A send that joins waits at most its own `timeoutMs` for it.
   */
  private resolveActor(subject: string, id: string, timeoutMs: number, hedge: boolean): Promise<ActivationOutcome> {
    const key = `${subject} ${id}`;
    let shared = this.resolving.get(key);
    if (!shared) {
      shared = this.requestActivation(subject, id, timeoutMs, hedge).finally(() => this.resolving.delete(key));
      this.resolving.set(key, shared);
      return shared;
    }
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<ActivationOutcome>((resolve) => {
      timer = setTimeout(() => resolve({ kind: 'timed-out' }), timeoutMs);
    });
    return Promise.race([shared, timedOut]).finally(() => clearTimeout(timer));
  }

  /** One activate request to the host pool (hedged, see `hedged`), classified. */
  private async requestActivation(subject: string, id: string, timeoutMs: number, hedge: boolean): Promise<ActivationOutcome> {
    const payload = encode({ id });
    try {
      const msg = await (hedge ? hedged((left) => this.requester.request(subject, payload, left), timeoutMs) : this.requester.request(subject, payload, timeoutMs));
      const reply = parseActivateReply(decode(msg.data));
      if (!reply) return { kind: 'refused', reason: 'malformed activate reply', retryAfterMs: this.retryPauseMs };
      if (reply.ok) return { kind: 'active' };
      const retryAfterMs = Math.min(reply.retryAfterMs, this.retryPauseMs);
      return reply.owner !== undefined
        ? { kind: 'owned', reason: reply.reason, retryAfterMs, freeInMs: reply.retryAfterMs }
        : { kind: 'refused', reason: reply.reason, retryAfterMs };
    } catch (err) {
      if (isConnectionGone(err)) return { kind: 'gone' };
      if (isNoResponders(err)) return { kind: 'no-hosts', retryAfterMs: this.retryPauseMs };
      if (isRequestTimeout(err)) return { kind: 'timed-out' };
      return { kind: 'refused', reason: messageOf(err), retryAfterMs: this.retryPauseMs };
    }
  }
}

/** An error code from the wire; one this build does not know (a newer host) becomes `internal`. */
function knownCode(code: string): ErrorCode {
  return httpStatusOf(code as ErrorCode) === undefined ? 'internal' : (code as ErrorCode);
}
