/**
 * An actor host: one member of the pool that runs activations of the given actor types.
 *
 * Placement: every host of a type listens on `<prefix>.<type>.activate` in the queue group
 * `<prefix>.<type>.hosts`, and NATS hands each activate request to one random member, so
 * actors spread uniformly over the hosts without any host naming another. The host that gets
 * the request acquires the id in the owners bucket (see ownership.ts), activates the actor and
 * subscribes its command subject; its liveness (liveness.ts) is what lets another host take
 * the id over when it dies.
 */
import type { Msg, NatsConnection, Subscription } from 'nats';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { Activation } from './activation.js';
import type { ActorType, CommandReply } from './actor-type.js';
import { NO_METER, type HostMeter } from './host-meter.js';
import { Liveness } from './liveness.js';
import { activateSubject, assertTypeName, hostsQueueGroup, isValidActorId } from './names.js';
import { messageOf } from './nats-errors.js';
import { Outbox } from './outbox.js';
import { Pacer } from './pacer.js';
import type { BucketReplication } from './kv-bucket.js';
import { Owners } from './ownership.js';
import { decode, encode, parseActivateRequest, type ActivateReply } from './wire.js';

export interface ActorHostOptions {
  nc: NatsConnection;
  /** Startup key `nats.subject_prefix` (default `svc`). */
  prefix: string;
  /** Unique per process (the replica id); shown as owner in logs and stats. */
  hostId: string;
  types: ActorType[];
  logger: Logger;
  /** Copies JetStream keeps of the hosts and owners buckets (`nats.replicas`). Default 1. */
  bucketReplicas?: number;
  /** Lease TTL: max-age of the hosts bucket, and how long a dead host blocks its actors. Default 1500. */
  leaseTtlMs?: number;
  /** Heartbeat interval; default TTL/5, at most TTL/3. */
  heartbeatMs?: number;
  /** Passivate an activation after this long without commands (when the actor is idle()). Default 300 000. */
  idleTimeoutMs?: number;
  /** Commands queued per activation before new ones are answered `busy`. Default 1024. */
  mailboxSize?: number;
  /** Longest work may wait for this host's CPU before new commands are shed as `busy` (see pacer.ts). Default 100. */
  maxQueueWaitMs?: number;
  /** Upper bound for drain(); activations not finished by then are cut off. Default 10 000. */
  drainTimeoutMs?: number;
  /** Command ids (with replies) remembered per activation to answer retries. Default 512. */
  recentCommands?: number;
  /** Characters of replies remembered per activation (the newest is always kept). Default 4 MiB. */
  recentReplyBytes?: number;
  /** Where activations, their ends, command turns and events are counted (metrics); default none. */
  meter?: HostMeter;
}

interface TypePool {
  type: ActorType;
  owners: Owners;
  activateSub: Subscription | undefined;
  activations: Map<string, Activation>;
  /** Per-id activation in progress: concurrent requests for one id share it. */
  activating: Map<string, Promise<ActivateReply>>;
}

type HostState = 'running' | 'draining' | 'stopped';

const DEFAULTS = {
  bucketReplicas: 1,
  leaseTtlMs: 1500,
  idleTimeoutMs: 300_000,
  mailboxSize: 1024,
  maxQueueWaitMs: 100,
  drainTimeoutMs: 10_000,
  recentCommands: 512,
  recentReplyBytes: 4 * 1024 * 1024,
};
/** Commands started per event-loop turn before the rest wait for the next (see pacer.ts). */
const COMMANDS_PER_SLICE = 256;
/** Turn time per event-loop turn, all activations together (see pacer.ts). */
const SLICE_MS = 10;
/** Retry hint for "this host cannot take activations right now": another host likely can. */
const RETRY_ELSEWHERE_MS = 20;
/** Retry hint after a failed activation (the actor's load failed): give it a moment. */
const RETRY_AFTER_FAILURE_MS = 100;

export class ActorHost {
  readonly hostId: string;
  private state: HostState = 'running';
  private readonly pools = new Map<string, TypePool>();
  private readonly logger: Logger;
  private sweepTimer: NodeJS.Timeout | undefined;
  private drained: Promise<void> | undefined;
  private liveness!: Liveness;
  private readonly outbox: Outbox;
  private readonly pacer: Pacer;
  private readonly overloadedReply: string;
  /** Passivations in progress, until the id is released and out of the map. */
  private readonly passivations = new WeakMap<Activation, Promise<void>>();

  private constructor(private readonly options: Required<ActorHostOptions>) {
    this.hostId = options.hostId;
    this.logger = options.logger.child({ component: 'actor-host', hostId: options.hostId });
    this.pacer = new Pacer({ perSlice: COMMANDS_PER_SLICE, sliceMs: SLICE_MS, maxWaitMs: options.maxQueueWaitMs });
    this.overloadedReply = encode({
      ok: false,
      error: { code: 'busy', message: `actor host ${options.hostId} is overloaded: commands waited more than ${options.maxQueueWaitMs} ms to start` },
    } satisfies CommandReply);
    // Never throwing: the connection may be closing under a late turn at shutdown.
    this.outbox = new Outbox(options.nc, (err, subject) => this.logger.debug({ err: messageOf(err), subject }, 'could not publish'));
  }

  /** Joins the pool: liveness key, owners buckets, activate subscriptions, idle sweep. */
  static async start(options: ActorHostOptions): Promise<ActorHost> {
    const leaseTtlMs = options.leaseTtlMs ?? DEFAULTS.leaseTtlMs;
    const names = new Set<string>();
    for (const type of options.types) {
      assertTypeName(type.name);
      if (names.has(type.name)) throw new Error(`actor type "${type.name}" is registered twice`);
      names.add(type.name);
    }
    const host = new ActorHost({
      ...options,
      bucketReplicas: options.bucketReplicas ?? DEFAULTS.bucketReplicas,
      leaseTtlMs,
      heartbeatMs: options.heartbeatMs ?? Math.floor(leaseTtlMs / 5),
      idleTimeoutMs: options.idleTimeoutMs ?? DEFAULTS.idleTimeoutMs,
      mailboxSize: options.mailboxSize ?? DEFAULTS.mailboxSize,
      maxQueueWaitMs: options.maxQueueWaitMs ?? DEFAULTS.maxQueueWaitMs,
      drainTimeoutMs: options.drainTimeoutMs ?? DEFAULTS.drainTimeoutMs,
      recentCommands: options.recentCommands ?? DEFAULTS.recentCommands,
      recentReplyBytes: options.recentReplyBytes ?? DEFAULTS.recentReplyBytes,
      meter: options.meter ?? NO_METER,
    });
    await host.join();
    return host;
  }

  /** Live activations on this host. */
  activeCount(): number {
    let count = 0;
    for (const pool of this.pools.values()) count += pool.activations.size;
    return count;
  }

  /** Live activations per actor type (every registered type, zeros included). */
  activeByType(): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const [name, pool] of this.pools) counts[name] = pool.activations.size;
    return counts;
  }

  /**
   * Graceful shutdown (SIGTERM): stop taking activations, finish every queued command,
   * deactivate and release every actor, then mark the liveness key stopped. Commands sent meanwhile
   * are re-resolved by their client onto another host. Bounded by `drainTimeoutMs`.
   */
  drain(): Promise<void> {
    this.drained ??= this.runDrain();
    return this.drained;
  }

  /**
   * Abrupt shutdown: every activation ends at once (queued commands are told to retry
   * elsewhere, the actor gets deactivate('shutdown')), ownership records are left to be taken
   * over, and the liveness key is marked stopped so that happens immediately.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    this.state = 'stopped';
    clearInterval(this.sweepTimer);
    const ends: Array<Promise<void>> = [];
    for (const pool of this.pools.values()) {
      this.unsubscribeActivate(pool);
      for (const activation of pool.activations.values()) ends.push(activation.cutOff('shutdown'));
      pool.activations.clear();
    }
    await this.liveness.stop();
    await Promise.allSettled(ends);
    this.outbox.flush();
    this.logger.info('actor host stopped');
  }

  private async join(): Promise<void> {
    const { nc, prefix } = this.options;
    const js = nc.jetstream();
    const replication: BucketReplication = {
      replicas: this.options.bucketReplicas,
      onResized: (bucket, from, to) => this.logger.info({ bucket, from, to }, 'changed the copies JetStream keeps of a bucket (nats.replicas)'),
    };
    this.liveness = await Liveness.start({
      nc,
      js,
      prefix,
      hostId: this.hostId,
      replication,
      leaseTtlMs: this.options.leaseTtlMs,
      heartbeatMs: this.options.heartbeatMs,
      logger: this.logger,
      onLost: (reason) => this.onLivenessLost(reason),
      onRecovered: () => this.onLivenessRecovered(),
    }).catch((err: unknown) => {
      throw bucketError(err);
    });
    try {
      for (const type of this.options.types) {
        const owners = await Owners.open(js, prefix, type.name, replication);
        this.pools.set(type.name, { type, owners, activateSub: undefined, activations: new Map(), activating: new Map() });
      }
    } catch (err) {
      await this.liveness.stop();
      throw bucketError(err);
    }
    for (const pool of this.pools.values()) this.subscribeActivate(pool);
    const sweepMs = Math.min(5_000, Math.max(20, Math.floor(this.options.idleTimeoutMs / 4)));
    this.sweepTimer = setInterval(() => this.sweepIdle(), sweepMs);
    this.logger.info(
      { types: [...this.pools.keys()], leaseTtlMs: this.liveness.ttlMs, incarnation: this.liveness.self.incarnation },
      'actor host started',
    );
  }

  private subscribeActivate(pool: TypePool): void {
    const { nc, prefix } = this.options;
    pool.activateSub = nc.subscribe(activateSubject(prefix, pool.type.name), {
      queue: hostsQueueGroup(prefix, pool.type.name),
      callback: (err, msg) => {
        if (!err) void this.onActivateRequest(pool, msg);
      },
    });
  }

  private unsubscribeActivate(pool: TypePool): void {
    pool.activateSub?.unsubscribe();
    pool.activateSub = undefined;
  }

  private async onActivateRequest(pool: TypePool, msg: Msg): Promise<void> {
    const request = parseActivateRequest(decode(msg.data));
    let reply: ActivateReply;
    if (!request || !isValidActorId(request.id)) {
      reply = { ok: false, retryAfterMs: 1_000, reason: 'malformed activate request' };
    } else {
      reply = await this.activate(pool, request.id).catch((err: unknown) => {
        this.logger.error({ err, actorType: pool.type.name, actorId: request.id }, 'activation failed');
        return { ok: false, retryAfterMs: RETRY_AFTER_FAILURE_MS, reason: `activation failed: ${messageOf(err)}` };
      });
    }
    try {
      msg.respond(encode(reply));
    } catch (err) {
      // The connection closed under a late activation (shutdown); the client retries.
      this.logger.debug({ err: messageOf(err) }, 'could not answer an activate request');
    }
  }

  private async activate(pool: TypePool, id: string): Promise<ActivateReply> {
    for (;;) {
      if (this.state !== 'running') return { ok: false, retryAfterMs: RETRY_ELSEWHERE_MS, reason: `host ${this.hostId} is draining` };
      if (!this.liveness.isLive()) {
        return { ok: false, retryAfterMs: RETRY_ELSEWHERE_MS, reason: `host ${this.hostId} is restoring its liveness` };
      }
      const current = pool.activations.get(id);
      if (current?.active) return { ok: true, hostId: this.hostId };
      const passivating = current && this.passivations.get(current);
      if (passivating) {
        // Once it is released, take it again here rather than sending the client around.
        await passivating;
        continue;
      }
      if (current) return { ok: false, retryAfterMs: RETRY_ELSEWHERE_MS, reason: `${pool.type.name} ${id} is ending here` };
      let pending = pool.activating.get(id);
      if (!pending) {
        pending = this.acquireAndActivate(pool, id).finally(() => pool.activating.delete(id));
        pool.activating.set(id, pending);
      }
      return pending;
    }
  }

  private async acquireAndActivate(pool: TypePool, id: string): Promise<ActivateReply> {
    const typeName = pool.type.name;
    const incarnation = this.liveness.self.incarnation;
    const acquired = await pool.owners.acquire(id, this.liveness);
    const { meter } = this.options;
    if (!acquired.ok) {
      meter.activation(typeName, 'refused');
      return acquired;
    }

    const log = this.logger.child({ actorType: typeName, actorId: id });
    const started = performance.now();
    let activation: Activation;
    try {
      activation = new Activation({
        nc: this.options.nc,
        outbox: this.outbox,
        pacer: this.pacer,
        overloadedReply: this.overloadedReply,
        prefix: this.options.prefix,
        actorType: pool.type,
        id,
        revision: acquired.revision,
        inherited: acquired.inherited,
        logger: log.child({ fence: acquired.revision }),
        mailboxSize: this.options.mailboxSize,
        recentCommands: this.options.recentCommands,
        recentReplyBytes: this.options.recentReplyBytes,
        // Bound to the incarnation its record names: it must never act under a later one.
        isLive: () => this.liveness.isLiveAs(incarnation),
        renew: (revision) => pool.owners.renew(id, revision, this.liveness),
        onFenced: (fenced, reason) => void this.onFenced(pool, fenced, reason),
        meter,
      });
      await activation.start();
    } catch (err) {
      log.warn({ err: messageOf(err), fence: acquired.revision }, 'actor activation failed; released');
      await this.release(pool, id, acquired.revision);
      meter.activation(typeName, 'failed');
      return { ok: false, retryAfterMs: RETRY_AFTER_FAILURE_MS, reason: `activation failed: ${messageOf(err)}` };
    }
    if (!this.liveness.isLiveAs(incarnation) || this.state === 'stopped') {
      // The liveness was lost (or the host stopped) while loading: the record is no longer
      // backed by this host, and another host may already own the id. Lost to a dropped
      // connection, the incarnation is over while NATS is still away: the command subscription
      // made meanwhile would come back with the reconnect and serve next to the new owner.
      await activation.cutOff(this.state === 'stopped' ? 'shutdown' : 'fenced');
      return { ok: false, retryAfterMs: RETRY_ELSEWHERE_MS, reason: `host ${this.hostId} lost its liveness while activating` };
    }
    pool.activations.set(id, activation);
    meter.activation(typeName, acquired.takenOver ? 'taken_over' : 'created');
    log.info({ fence: acquired.revision, ms: Math.round(performance.now() - started) }, 'actor activated');
    return { ok: true, hostId: this.hostId };
  }

  private sweepIdle(): void {
    if (this.state !== 'running') return;
    const now = performance.now();
    const wallNow = Date.now();
    for (const pool of this.pools.values()) {
      for (const activation of pool.activations.values()) {
        activation.expireReplies(wallNow);
        if (activation.shouldPassivate(this.options.idleTimeoutMs, now)) void this.passivate(pool, activation, 'idle');
      }
    }
  }

  /** Graceful end of one activation: finish its queue, deactivate, release the id. */
  private passivate(pool: TypePool, activation: Activation, reason: 'idle' | 'drain'): Promise<void> {
    let passivation = this.passivations.get(activation);
    if (!passivation) {
      passivation = (async () => {
        await activation.passivate(reason);
        // Cut off meanwhile (liveness lost, fenced): the record is not ours to release any more.
        if (pool.activations.get(activation.id) !== activation) return;
        await this.release(pool, activation.id, activation.ownerRevision);
        pool.activations.delete(activation.id);
        this.logger.info({ actorType: pool.type.name, actorId: activation.id, reason }, 'actor deactivated');
      })();
      this.passivations.set(activation, passivation);
    }
    return passivation;
  }

  private async onFenced(pool: TypePool, activation: Activation, reason: string): Promise<void> {
    if (pool.activations.get(activation.id) !== activation) return;
    pool.activations.delete(activation.id);
    this.logger.warn({ actorType: pool.type.name, actorId: activation.id, fence: activation.ownerRevision, reason }, 'actor fenced');
    await activation.cutOff('fenced');
    // Usually another host holds the record by now; if it is still ours (NATS lost revisions,
    // say), releasing it lets the next activation get a higher token.
    await this.release(pool, activation.id, activation.ownerRevision);
    this.logger.info({ actorType: pool.type.name, actorId: activation.id, reason: 'fenced' }, 'actor deactivated');
  }

  private onLivenessLost(reason: string): void {
    // Synchronous: nothing may run for these activations after this returns.
    let count = 0;
    for (const pool of this.pools.values()) {
      this.unsubscribeActivate(pool);
      for (const activation of pool.activations.values()) {
        count += 1;
        const { id } = activation;
        void activation.cutOff('lease-lost').then(() =>
          this.logger.info({ actorType: pool.type.name, actorId: id, reason: 'lease-lost' }, 'actor deactivated'),
        );
      }
      pool.activations.clear();
    }
    this.logger.warn({ reason, activations: count }, 'every activation stopped: this host no longer holds its lease');
  }

  private onLivenessRecovered(): void {
    if (this.state !== 'running') return;
    for (const pool of this.pools.values()) if (!pool.activateSub) this.subscribeActivate(pool);
  }

  private async release(pool: TypePool, id: string, revision: number): Promise<void> {
    try {
      await pool.owners.release(id, revision);
    } catch (err) {
      // The record then points at this host until its liveness key goes: others take over.
      this.logger.warn({ err: messageOf(err), actorType: pool.type.name, actorId: id }, 'could not release ownership');
    }
  }

  private async runDrain(): Promise<void> {
    if (this.state !== 'running') return;
    this.state = 'draining';
    clearInterval(this.sweepTimer);
    const started = performance.now();
    this.logger.info({ activations: this.activeCount() }, 'draining actor host');
    for (const pool of this.pools.values()) {
      const sub = pool.activateSub;
      pool.activateSub = undefined;
      // Requests already delivered are still answered (with "retry elsewhere").
      if (sub) await sub.drain().catch(() => sub.unsubscribe());
    }
    await Promise.allSettled([...this.pools.values()].flatMap((pool) => [...pool.activating.values()]));

    const passivations = [...this.pools.values()].flatMap((pool) =>
      [...pool.activations.values()].map((activation) => this.passivate(pool, activation, 'drain')),
    );
    let timer: NodeJS.Timeout | undefined;
    const timedOut = await Promise.race([
      Promise.allSettled(passivations).then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), this.options.drainTimeoutMs);
      }),
    ]);
    clearTimeout(timer);
    if (timedOut) {
      const left = this.activeCount();
      this.logger.warn({ activations: left, drainTimeoutMs: this.options.drainTimeoutMs }, 'drain timed out; cutting off the rest');
      for (const pool of this.pools.values()) {
        for (const activation of pool.activations.values()) void activation.cutOff('drain');
        pool.activations.clear();
      }
    }
    this.state = 'stopped';
    this.outbox.flush();
    await this.liveness.stop();
    this.logger.info({ ms: Math.round(performance.now() - started) }, 'actor host drained');
  }
}

/** Opening the KV buckets fails mostly when JetStream is off; say so rather than "503". */
function bucketError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  return new AppError('unavailable', `cannot open the actor runtime's JetStream KV buckets (is JetStream enabled on NATS?): ${messageOf(err)}`);
}
