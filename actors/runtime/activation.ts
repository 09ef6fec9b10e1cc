/**
 * One live activation of one actor on this host: its command subscription, its turn-based
 * mailbox, its event sequence, its timers and the replies of its recent commands.
 *
 * Everything the actor sees happens one turn at a time in arrival order; the host decides
 * when an activation starts and ends (see host.ts), this module how it behaves meanwhile.
 */
import { randomUUID } from 'node:crypto';
import type { Msg, NatsConnection, Subscription } from 'nats';
import { AppError, isAppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { commandKindOf, inSpan, SpanKind, tracingEnabled, type TraceFields } from '../../observability/index.js';
import type {
  ActivationContext,
  Actor,
  ActorType,
  Caller,
  CommandEnvelope,
  CommandReply,
  DeactivationReason,
} from './actor-type.js';
import { commandKeyOf } from './command-key.js';
import { isCommandAlreadyApplied, type RecordedCommand } from './command-log.js';
import { isFencedError } from './fencing.js';
import type { HostMeter } from './host-meter.js';
import { Mailbox } from './mailbox.js';
import { commandSubject, eventSubject } from './names.js';
import { isWrongLastSequence, messageOf } from './nats-errors.js';
import type { Outbox } from './outbox.js';
import type { Pacer } from './pacer.js';
import { RecentCommands } from './recent-commands.js';
import { bytesOverLimit, decode, encode, notHereReply, parseEnvelope, PROTOCOL_VERSION, replyError, resultReply } from './wire.js';

/** seq = fence * 2^20 + counter: 2^20 events per fence before the lease must be renewed. */
const EVENTS_PER_FENCE = 2 ** 20;
/** Renew between turns once half the counter is used, so no turn can run out of it. */
const RENEW_AT = EVENTS_PER_FENCE / 2;
/** The answer to a command this activation will not run because it ended: built once, sent often when a host is cut off. */
const ENDED_REPLY = encode(notHereReply('the activation ended; retry', 0));
/** The largest revision whose seqs stay exact in a double (fence * 2^20 + counter < 2^53). */
const MAX_REVISION = 2 ** 33 - 1;

export interface ActivationDeps {
  nc: NatsConnection;
  /** Where replies and events go (the host's, shared by its activations). */
  outbox: Outbox;
  /** Starts delivered commands a bounded number per event-loop turn (the host's). */
  pacer: Pacer;
  /** The `busy` reply for a command the pacer sheds because the host is behind. */
  overloadedReply: string;
  prefix: string;
  actorType: ActorType;
  id: string;
  /** The ownership record's revision: the first fencing token. */
  revision: number;
  /** The activation before did not release the id (ActivationContext.inherited). */
  inherited?: boolean;
  logger: Logger;
  mailboxSize: number;
  recentCommands: number;
  /** Characters of remembered replies per activation before the oldest are forgotten early. */
  recentReplyBytes: number;
  /** The host's liveness; checked before every message. */
  isLive(): boolean;
  /** Rewrites the ownership record for a higher revision; throws when it is no longer ours. */
  renew(revision: number): Promise<number>;
  /** The actor found itself fenced (ctx.fenced, or a turn failed with FencedError). */
  onFenced(activation: Activation, reason: string): void;
  /** The host's meter: command turns, events and the end of a started activation. */
  meter: HostMeter;
}

type Work =
  /** `key`: the caller-scoped id the command is remembered by (command-key.ts). */
  | { kind: 'command'; envelope: CommandEnvelope; key: string; receivedAt: number }
  | { kind: 'timer'; command: unknown };

type State = 'starting' | 'active' | 'stopping' | 'stopped';

export class Activation {
  readonly id: string;
  readonly type: string;
  readonly ctx: ActivationContext;
  private state: State = 'starting';
  private revision: number;
  private counter = 0;
  private actor: Actor | undefined;
  private sub: Subscription | undefined;
  private readonly mailbox: Mailbox<Work>;
  private readonly recent: RecentCommands;
  private readonly cmdSubject: string;
  private readonly evtSubject: string;
  private readonly selfCaller: Caller;
  private readonly logger: Logger;
  private running = false;
  private lastActivity = performance.now();
  private readonly timers = new Set<NodeJS.Timeout>();
  private quietWaiters: Array<() => void> = [];
  private endReason: DeactivationReason | undefined;
  private ending: Promise<void> | undefined;
  private fencedReason: string | undefined;
  /** Set when cut off: a late turn's events would carry a seq below the new owner's. */
  private silenced = false;
  /** Aborted when the host stops waiting for deactivate() (cut off). */
  private readonly giveUp = new AbortController();
  /** Became active once: only such an end counts as a deactivation in the metrics and logs its end. */
  private started = false;
  /** The fence this activation started with (renewals raise `revision`), for its log lines. */
  private readonly startFence: number;
  /** The recorded trace of the command turn running now, for its writes and events. */
  private turnTrace: TraceFields | undefined;
  /** Wall-clock start of the last turn (command or timer): what an overlap audit compares. */
  private lastTurnAt: number | undefined;

  constructor(private readonly deps: ActivationDeps) {
    if (deps.revision > MAX_REVISION) {
      throw new AppError('internal', `ownership revision ${deps.revision} is beyond ${MAX_REVISION}: event seqs would lose precision`);
    }
    this.id = deps.id;
    this.type = deps.actorType.name;
    this.revision = deps.revision;
    this.startFence = deps.revision;
    this.mailbox = new Mailbox(deps.mailboxSize);
    this.recent = new RecentCommands(deps.recentCommands, deps.recentReplyBytes);
    this.cmdSubject = commandSubject(deps.prefix, this.type, this.id);
    this.evtSubject = eventSubject(deps.prefix, this.type, this.id);
    this.selfCaller = { userId: `actor:${this.type}:${this.id}`, service: true };
    this.logger = deps.logger;
    const ctx = {
      type: this.type,
      id: this.id,
      inherited: deps.inherited === true,
      logger: deps.logger,
      publish: (event: unknown) => this.publish(event),
      currentSeq: () => this.currentSeq(),
      schedule: (ms: number, command: unknown) => this.schedule(ms, command),
      fenced: (reason: string) => this.fenced(reason),
      rememberReplies: (commands: readonly RecordedCommand[]) => {
        for (const command of commands) this.recent.restore(command.commandId, command.reply, command.deadline);
      },
    };
    // A getter: the token grows when the lease is renewed, and actors read it at each write.
    Object.defineProperty(ctx, 'fence', { enumerable: true, get: () => this.fence });
    // The running turn's trace, for the actor's durable writes (turns of one activation never overlap).
    Object.defineProperty(ctx, 'trace', { enumerable: true, get: () => this.turnTrace });
    this.ctx = ctx as ActivationContext;
  }

  get fence(): bigint {
    return BigInt(this.revision);
  }

  /** The ownership record's current revision (what a release must name). */
  get ownerRevision(): number {
    return this.revision;
  }

  get active(): boolean {
    return this.state === 'active';
  }

  /** Resolves when the actor's deactivate() has returned (or failed). */
  get ended(): Promise<void> {
    return this.ending ?? Promise.resolve();
  }

  /** Loads the actor and subscribes its command subject; throws when activation fails. */
  async start(): Promise<void> {
    this.actor = await this.deps.actorType.activate(this.ctx);
    if (this.fencedReason !== undefined) {
      await this.callDeactivate('fenced');
      throw new AppError('conflict', `fenced while activating: ${this.fencedReason}`);
    }
    // Subscribed on the connection that answers the activate request afterwards, so the
    // server has the subscription before the client can send its command.
    try {
      this.sub = this.deps.nc.subscribe(this.cmdSubject, {
        callback: (err, msg) => {
          if (!err) this.deliver(msg);
        },
      });
    } catch (err) {
      await this.callDeactivate('shutdown');
      throw err;
    }
    this.state = 'active';
    this.started = true;
    // Info level on purpose: operators (and `npm run soak`) audit single activation from these.
    this.logger.info({ type: this.type, id: this.id, fence: this.startFence, at: Date.now() }, 'activation started');
  }

  /** Forgets remembered replies past their deadline (the host's sweep; busy activations do it as they go). */
  expireReplies(now = Date.now()): void {
    this.recent.expire(now);
  }

  /** True when the activation has been quiet for `idleMs` and the actor agrees to passivate. */
  shouldPassivate(idleMs: number, now = performance.now()): boolean {
    if (this.state !== 'active' || this.running || this.mailbox.size > 0 || now - this.lastActivity < idleMs) return false;
    try {
      return this.actor?.idle() ?? false;
    } catch (err) {
      this.logger.warn({ err: messageOf(err) }, 'actor idle() failed; keeping it active');
      return false;
    }
  }

  /**
   * Graceful end (idle passivation, drain): stop receiving, finish every queued command,
   * then deactivate. Commands sent after the unsubscribe find no responder and the client
   * re-resolves the actor.
   */
  passivate(reason: 'idle' | 'drain'): Promise<void> {
    if (this.ending) return this.ending;
    this.endReason = reason;
    this.state = 'stopping';
    this.cancelTimers();
    this.ending = (async () => {
      const sub = this.sub;
      // drain() delivers what the server already sent before the unsubscribe took effect.
      if (sub) await sub.drain().catch(() => sub.unsubscribe());
      await this.whenQuiet();
      this.state = 'stopped';
      await this.callDeactivate(this.endReason ?? reason);
    })();
    return this.ending;
  }

  /**
   * Abrupt end (fenced, liveness lost, host stopped): stop at once, tell queued commands to
   * go elsewhere, and deactivate once the turn in progress (if any) has finished.
   */
  cutOff(reason: DeactivationReason): Promise<void> {
    this.endReason = reason;
    this.silenced = true;
    this.giveUp.abort();
    if (this.state !== 'stopped') {
      this.state = 'stopped';
      this.sub?.unsubscribe();
      this.cancelTimers();
      for (const work of this.mailbox.clear()) if (work.kind === 'command') this.refuse(work.key, ENDED_REPLY);
    }
    this.ending ??= this.whenQuiet().then(() => this.callDeactivate(this.endReason ?? reason));
    return this.ending;
  }

  /**
   * A command as it arrives: checked and registered under its caller-scoped key at once, so
   * a retry of it joins this one whether it is still waiting for the pacer or already queued;
   * the pacer then decides when it enters the mailbox, or sheds it when the host is behind.
   */
  private deliver(msg: Msg): void {
    const receivedAt = Date.now();
    if (this.state !== 'active' && this.state !== 'stopping') {
      if (msg.reply) this.send(msg.reply, ENDED_REPLY);
      return;
    }
    const envelope = parseEnvelope(decode(msg.data));
    if (envelope instanceof AppError) {
      this.respond(msg.reply, { ok: false, error: replyError(envelope) });
      return;
    }
    // The caller has given up on it; whatever it would do, nobody waits for the answer.
    if (receivedAt > envelope.deadline) return;
    const key = commandKeyOf(envelope);
    const seen = this.recent.seen(key, msg.reply);
    if (seen.state === 'done') {
      if (msg.reply) this.send(msg.reply, seen.reply);
      return;
    }
    if (seen.state === 'pending') return;
    this.recent.begin(key, msg.reply, envelope.deadline);
    this.deps.pacer.run(
      () => this.admit({ kind: 'command', envelope, key, receivedAt }),
      () => this.refuse(key, this.deps.overloadedReply),
    );
  }

  /** Puts a delivered command in the mailbox (or answers why it cannot go there). */
  private admit(work: Extract<Work, { kind: 'command' }>): void {
    const { key } = work;
    if ((this.state !== 'active' && this.state !== 'stopping') || !this.deps.isLive()) {
      this.refuse(key, ENDED_REPLY);
      return;
    }
    if (!this.mailbox.offer(work)) {
      const busy: CommandReply = {
        ok: false,
        error: { code: 'busy', message: `${this.type} ${this.id} is busy: ${this.mailbox.capacity} commands are queued` },
      };
      this.refuse(key, encode(busy));
      return;
    }
    this.lastActivity = performance.now();
    void this.pump();
  }

  /** Answers every waiter of a command that will not run here with `reply`. */
  private refuse(key: string, reply: string): void {
    for (const waiter of this.recent.forget(key)) this.send(waiter, reply);
  }

  private async pump(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      while (this.state === 'active' || this.state === 'stopping') {
        // A host that lost its liveness may no longer act; the check also starts its recovery,
        // which cuts this activation off.
        if (!this.deps.isLive()) break;
        const work = this.mailbox.take();
        if (!work) break;
        await this.run(work);
        if (this.counter >= RENEW_AT && this.state === 'active') await this.renewFence();
        // Turns that never wait on I/O chain as microtasks: the host's pacer decides when the
        // next one may run, so no actor starves the heartbeat, the network or the others.
        const pause = this.mailbox.size > 0 ? this.deps.pacer.pause() : undefined;
        if (pause) await pause;
      }
    } finally {
      this.running = false;
      if (this.mailbox.size === 0 || this.state === 'stopped') {
        const waiters = this.quietWaiters;
        this.quietWaiters = [];
        for (const resolve of waiters) resolve();
      }
    }
  }

  private async run(work: Work): Promise<void> {
    const actor = this.actor as Actor;
    if (work.kind === 'timer') {
      this.lastTurnAt = Date.now();
      try {
        const now = Date.now();
        await actor.handle(work.command, this.selfCaller, { receivedAt: now, commandId: randomUUID(), deadline: Infinity, scheduled: true });
      } catch (err) {
        if (isFencedError(err)) this.fenced(err.message);
        else this.logger.warn({ err: messageOf(err) }, 'scheduled command failed');
      }
      return;
    }

    const { envelope, key, receivedAt } = work;
    if (Date.now() > envelope.deadline) {
      this.recent.forget(key);
      return;
    }
    this.lastTurnAt = Date.now();
    let reply: CommandReply;
    const turnStarted = performance.now();
    try {
      const result = await this.traced(envelope, () =>
        actor.handle(envelope.command, envelope.caller, {
          ...(envelope.sentAt !== undefined ? { sentAt: envelope.sentAt } : {}),
          receivedAt,
          commandId: key,
          deadline: envelope.deadline,
        }),
      );
      reply = resultReply(result, this.currentSeq());
    } catch (err) {
      if (isCommandAlreadyApplied(err)) {
        // An earlier execution (here or in an older activation) committed it: its reply stands.
        for (const waiter of this.recent.complete(key, err.reply)) this.send(waiter, err.reply);
        return;
      }
      if (isFencedError(err) || this.fencedReason !== undefined) {
        // Not executed here, and a newer activation exists: the client retries there.
        this.fenced(this.fencedReason ?? messageOf(err));
        reply = notHereReply(`${this.type} ${this.id} moved to a newer activation; retry`, 0);
      } else {
        if (!isAppError(err)) this.logger.error({ err, commandId: envelope.id }, 'command failed');
        reply = { ok: false, error: replyError(err) };
      }
    }
    this.lastActivity = performance.now();
    let data: string;
    try {
      data = encode(reply);
    } catch (err) {
      // A result JSON cannot carry (a bigint, a cycle) is the actor's bug; the caller gets `internal`.
      this.logger.error({ err, commandId: envelope.id }, 'command result is not JSON-serialisable');
      reply = { ok: false, error: replyError(err) };
      data = encode(reply);
    }
    // NATS refuses a message over max_payload: the caller would wait for nothing until its deadline.
    const maxPayload = this.deps.nc.info?.max_payload;
    const replyBytes = bytesOverLimit(data, maxPayload);
    if (replyBytes !== undefined) {
      const message = `the reply of ${this.type} ${this.id} is ${replyBytes} bytes, over the NATS max_payload of ${maxPayload} bytes`;
      this.logger.error({ commandId: envelope.id, bytes: replyBytes, maxPayload }, 'command reply too large for NATS; answering an error instead');
      reply = { ok: false, error: { code: 'internal', message } };
      data = encode(reply);
    }
    this.deps.meter.command(this.type, this.commandKind(envelope.command), reply.ok ? 'ok' : reply.error.code, (performance.now() - turnStarted) / 1000);
    // Only replies the actor produced are remembered; "go elsewhere" must not stick to the id.
    const waiters = !reply.ok && reply.retryAfterMs !== undefined ? this.recent.forget(key) : this.recent.complete(key, data);
    for (const waiter of waiters) this.send(waiter, data);
  }

  private publish(event: unknown): number {
    if (this.counter >= EVENTS_PER_FENCE - 1) {
      throw new AppError('internal', `${this.type} ${this.id}: more than ${RENEW_AT} events in one turn`);
    }
    const seq = this.currentSeq() + 1;
    // The turn's trace context, so the gateways' fan-out of the event joins its trace.
    const data = encode({ v: PROTOCOL_VERSION, seq, at: Date.now(), event, ...this.turnTrace });
    // Refused before it takes a seq: NATS would drop it, and subscribers would see a gap.
    const maxPayload = this.deps.nc.info?.max_payload;
    const bytes = bytesOverLimit(data, maxPayload);
    if (bytes !== undefined) {
      this.logger.error({ bytes, maxPayload }, 'event too large for NATS; the turn fails');
      throw new AppError('internal', `an event of ${this.type} ${this.id} is ${bytes} bytes, over the NATS max_payload of ${maxPayload} bytes`);
    }
    this.counter += 1;
    if (!this.silenced && this.deps.isLive()) {
      this.send(this.evtSubject, data);
      this.deps.meter.published(this.type);
    }
    return seq;
  }

  /** Runs a command's turn in a span continuing the sender's trace (the envelope's trace context). */
  private traced<T>(envelope: CommandEnvelope, turn: () => Promise<T>): Promise<T> {
    // A sender that records sends its trace; one that does not, nothing (tracing-context.ts).
    if (!tracingEnabled() || envelope.traceparent === undefined) return turn();
    const attributes = () => ({ 'svc.actor.type': this.type, 'svc.actor.id': this.id, 'svc.command.kind': commandKindOf(envelope.command), 'svc.actor.fence': this.revision });
    return inSpan(`actor.turn ${this.type}`, { kind: SpanKind.SERVER, parent: envelope, continuation: true, attributes }, async (traced) => {
      // Writes and events join a recorded trace only; an unrecorded one ends here.
      this.turnTrace = traced?.span.isRecording() ? traced.fields : undefined;
      try {
        return await turn();
      } finally {
        this.turnTrace = undefined;
      }
    });
  }

  private currentSeq(): number {
    return this.revision * EVENTS_PER_FENCE + this.counter;
  }

  private schedule(ms: number, command: unknown): { cancel(): void } {
    if (this.state !== 'active' && this.state !== 'starting') return { cancel: () => undefined };
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.state !== 'active') return;
      // Self-scheduled work is bounded by the actor itself; a full mailbox must not lose it.
      this.mailbox.offer({ kind: 'timer', command }, true);
      void this.pump();
    }, ms);
    this.timers.add(timer);
    return {
      cancel: () => {
        clearTimeout(timer);
        this.timers.delete(timer);
      },
    };
  }

  private fenced(reason: string): void {
    if (this.fencedReason !== undefined) return;
    this.fencedReason = reason;
    // While starting, start() reports it; the host never saw this activation as live.
    if (this.state !== 'starting') this.deps.onFenced(this, reason);
  }

  private async renewFence(): Promise<void> {
    try {
      this.revision = await this.deps.renew(this.revision);
      this.counter = 0;
      this.logger.debug({ fence: this.revision }, 'lease renewed for a new event epoch');
    } catch (err) {
      if (isWrongLastSequence(err)) {
        this.fenced('the ownership record was taken over');
        return;
      }
      // Retried after the next turn; publish() refuses only once the whole counter is used.
      this.logger.warn({ err: messageOf(err) }, 'could not renew the lease for a new event epoch');
    }
  }

  private whenQuiet(): Promise<void> {
    if (!this.running && (this.mailbox.size === 0 || this.state === 'stopped')) return Promise.resolve();
    return new Promise((resolve) => this.quietWaiters.push(resolve));
  }

  private async callDeactivate(asked: DeactivationReason): Promise<void> {
    if (!this.actor) return;
    // Refused by the fence, it ends as superseded whatever else ended it (a resumed host whose lease ran out): it saves nothing.
    const reason = this.fencedReason !== undefined ? 'fenced' : asked;
    if (this.started) this.deps.meter.deactivation(this.type, reason);
    try {
      await this.actor.deactivate(reason, this.giveUp.signal);
    } catch (err) {
      this.logger.error({ err, reason }, 'actor deactivate() failed');
    }
    if (this.started) {
      this.logger.info({ type: this.type, id: this.id, fence: this.startFence, reason, lastTurnAt: this.lastTurnAt ?? null, at: Date.now() }, 'activation ended');
    }
  }

  private commandKind(command: unknown): string {
    try {
      return this.deps.actorType.commandKind?.(command) ?? 'other';
    } catch {
      return 'other';
    }
  }

  private respond(replyTo: string | undefined, reply: CommandReply): void {
    if (replyTo) this.send(replyTo, encode(reply));
  }

  private send(subject: string, data: string): void {
    this.deps.outbox.publish(subject, data);
  }

  private cancelTimers(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
