/**
 * A host's liveness: one key in the `<prefix>_hosts` KV bucket, rewritten by a heartbeat.
 *
 * The bucket's max-age is the lease TTL. JetStream KV's per-key TTL is fixed when a key is
 * created and is not extended by an update, so it cannot express "alive while heartbeating";
 * a bucket max-age can: every heartbeat writes a new message, and the key vanishes TTL after
 * the last one. Another host reads "no key" (or a key of another incarnation) as "dead".
 *
 * The host applies the same rule to itself on its monotonic clock, counted from when the last
 * successful heartbeat was *sent* (the server stamped it later, so the key outlives that
 * window): past it, or when an update is refused because the key expired meanwhile, the host
 * has lost its liveness and must stop every activation before anyone else could own them.
 * It then starts a new incarnation (a fresh key value) and carries on empty.
 *
 * Another host's key being absent is not enough to take its actors over: keys can vanish
 * together (NATS restart, lost bucket, a jump of the server's clock) while their hosts still
 * serve. A takeover also waits one TTL past the owner's last heartbeat that this host saw
 * itself through its watch (host-view.ts).
 *
 * Unless its NATS connection is provably gone: a host ends its incarnation the moment its
 * connection drops, and answers probes on it while it lives, so a killed host's actors are
 * taken over as soon as the server has closed its connection (liveness-probe.ts).
 *
 * An incarnation ends at the loss, not when the next one starts: work begun under it (an
 * activation still loading) checks `isLiveAs(incarnation)`, never only `self`, which keeps
 * naming the lost incarnation until NATS is back.
 *
 * Two processes with one host id would replace each other's key forever; a host refuses to
 * start (and a recovering one waits) while another process keeps the id's key alive.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Events, type JetStreamClient, type KV, type NatsConnection } from 'nats';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { HostView, type LivenessValue } from './host-view.js';
import { openBucket, type BucketReplication } from './kv-bucket.js';
import { ConnectionProbe, ProbeResponder, type ProbedOwner } from './liveness-probe.js';
import { hostKey, hostsBucketName } from './names.js';
import { isWrongLastSequence, messageOf } from './nats-errors.js';
import { decode, encode } from './wire.js';

/** Who owns a liveness key: the record an ownership record points back to. */
export interface HostIdentity {
  hostId: string;
  /** The KV key of the host (the host id made key-safe). */
  hostKey: string;
  /** Random per liveness period: a host that lost its liveness comes back as another incarnation. */
  incarnation: string;
  /** The NATS server (`server_name`) of the connection this incarnation lives on. */
  server?: string;
  /** This incarnation answers liveness probes (liveness-probe.ts); absent from older builds. */
  probes?: boolean;
}

export interface LivenessOptions {
  nc: NatsConnection;
  js: JetStreamClient;
  prefix: string;
  hostId: string;
  replication: BucketReplication;
  leaseTtlMs: number;
  heartbeatMs: number;
  logger: Logger;
  /** Called synchronously when the liveness is lost; every activation must stop in it. */
  onLost(reason: string): void;
  /** Called once a new incarnation is live again after a loss. */
  onRecovered(): void;
}

/** Another host's liveness as seen from here. */
export type HostLiveness = { alive: true; retryAfterMs: number } | { alive: false };

export class Liveness {
  private state: 'starting' | 'live' | 'recovering' | 'stopped' = 'starting';
  private identity: HostIdentity;
  private startedAt = Date.now();
  private revision = 0;
  /** performance.now() after which this host must consider itself dead. */
  private liveUntil = 0;
  private beatTimer: NodeJS.Timeout | undefined;
  private lossTimer: NodeJS.Timeout | undefined;
  private beating: Promise<void> = Promise.resolve();
  /** Incarnations this process has had: only their keys may be replaced when claiming the id. */
  private readonly ownIncarnations = new Set<string>();
  private readonly view: HostView;
  /** How long after an owner's last heartbeat seen here it may be taken over (TTL plus clock-rate and delivery slack). */
  private readonly takeoverAfterMs: number;
  private readonly responder: ProbeResponder;
  private readonly probe: ConnectionProbe;
  /** Resolved while the NATS connection is up; a new pending promise from a disconnect to the next reconnect. */
  private connected: Promise<void> = Promise.resolve();
  /** Whether `connected` is resolved: no Disconnect since the last Reconnect. */
  private online = true;
  private markConnected: () => void = () => undefined;

  private constructor(
    private kv: KV,
    private readonly options: LivenessOptions,
    /** The bucket's max-age: what really decides when the key vanishes. */
    readonly ttlMs: number,
    private readonly heartbeatMs: number,
  ) {
    this.identity = { hostId: options.hostId, hostKey: hostKey(options.hostId), incarnation: randomUUID() };
    this.ownIncarnations.add(this.identity.incarnation);
    this.takeoverAfterMs = ttlMs + Math.max(25, Math.round(ttlMs / 30));
    this.view = new HostView(options.nc, kv, { logger: options.logger, lagLimitMs: Math.max(heartbeatMs, Math.round(ttlMs / 2)), parse: parseValue });
    this.responder = new ProbeResponder(options.nc, options.prefix);
    this.probe = new ConnectionProbe(options.nc, options.prefix, (server, except) => this.view.witnessesOn(server, except, ttlMs));
    void this.followConnection(options.nc).catch((err: unknown) =>
      options.logger.warn({ err: messageOf(err) }, 'stopped following the NATS connection status'),
    );
  }

  /** Opens the bucket and writes this host's first liveness key. */
  static async start(options: LivenessOptions): Promise<Liveness> {
    const logger = options.logger;
    const kv = await openHostsBucket(options.js, options.prefix, options.leaseTtlMs, options.replication);
    const bucketTtl = (await kv.status()).ttl;
    let ttlMs = options.leaseTtlMs;
    if (bucketTtl > 0 && bucketTtl !== options.leaseTtlMs) {
      // The bucket outlives any one host; it keeps the max-age it was created with. Its value
      // is what other hosts experience, so it is the one this host must respect too.
      logger.warn(
        { bucket: hostsBucketName(options.prefix), bucketTtlMs: bucketTtl, configuredTtlMs: options.leaseTtlMs },
        'the hosts bucket has another max-age than configured; using the bucket value as lease TTL',
      );
      ttlMs = bucketTtl;
    }
    const heartbeatMs = Math.min(options.heartbeatMs, Math.floor(ttlMs / 3));
    const liveness = new Liveness(kv, options, ttlMs, heartbeatMs);
    try {
      await liveness.goLive();
    } catch (err) {
      liveness.state = 'stopped';
      liveness.view.stop();
      liveness.responder.stop();
      throw err;
    }
    return liveness;
  }

  get self(): HostIdentity {
    return this.identity;
  }

  /**
   * True while this host may act as the owner of its activations. Checked before every message
   * an activation processes: a process resumed after SIGSTOP runs its buffered messages
   * before its timers, and must not act on them. Detecting the loss here starts the recovery.
   */
  isLive(): boolean {
    if (this.state !== 'live') return false;
    if (performance.now() < this.liveUntil) return true;
    this.lose(`no successful heartbeat for ${this.ttlMs} ms`);
    return false;
  }

  /**
   * True while `incarnation` is this host's live incarnation: what anything acquired under it
   * (an ownership record, an activation) must check before acting. Comparing with `self` is not
   * enough: a lost incarnation is still `self` until the next one starts, which after a dropped
   * connection waits for NATS to come back.
   */
  isLiveAs(incarnation: string): boolean {
    return this.isLive() && this.identity.incarnation === incarnation;
  }

  /**
   * Whether the host of an ownership record may still be serving it (`alive`, with how long
   * to wait before asking again), or is certainly gone: its NATS connection is (the server has
   * no responder for its probe, liveness-probe.ts), its key holds another incarnation (the
   * same process started over after cutting everything off), or the key is absent and one
   * TTL has passed since the later of its last heartbeat seen here and the start of this
   * host's continuous watch.
   */
  async hostLiveness(owner: ProbedOwner): Promise<HostLiveness> {
    const lease = await this.leaseLiveness(owner);
    if (!lease.alive) return lease;
    return (await this.probe.isGone(owner)) ? { alive: false } : lease;
  }

  /** The lease rule alone: what the heartbeats say, on this host's clock. */
  private async leaseLiveness(owner: ProbedOwner): Promise<HostLiveness> {
    const aliveFor = this.view.aliveFor(owner.hostKey, owner.incarnation, this.ttlMs);
    if (aliveFor > 0) return { alive: true, retryAfterMs: Math.max(20, aliveFor) };
    const entry = await this.kv.get(owner.hostKey);
    if (entry && entry.operation === 'PUT') {
      const value = parseValue(entry.value);
      if (value?.incarnation !== owner.incarnation) return { alive: false };
      const expiresIn = entry.created.getTime() + this.ttlMs - Date.now();
      return { alive: true, retryAfterMs: Math.min(this.ttlMs, Math.max(20, expiresIn)) };
    }
    const wait = this.view.waitBeforeTakeover(owner.hostKey, owner.incarnation, this.takeoverAfterMs);
    return wait > 0 ? { alive: true, retryAfterMs: Math.max(20, Math.min(wait, this.ttlMs)) } : { alive: false };
  }

  /**
   * Stops heartbeating, once every activation has ended. The key is not deleted but rewritten
   * as stopped, under an incarnation nobody owns anything with: an absent key makes other hosts
   * wait a TTL (it may have vanished under a live host), while a key of another incarnation
   * lets them take over this host's leftover records at once. It then expires on its own.
   */
  async stop(): Promise<void> {
    if (this.state === 'stopped') return;
    const wasLive = this.state === 'live';
    this.state = 'stopped';
    this.clearTimers();
    await this.beating;
    this.view.stop();
    this.responder.stop();
    this.markConnected();
    if (!wasLive) return;
    const stopped: LivenessValue = { hostId: this.identity.hostId, incarnation: randomUUID(), startedAt: this.startedAt, stopped: true };
    await this.kv.update(this.identity.hostKey, encode(stopped), this.revision).catch((err: unknown) => {
      this.options.logger.warn({ err: messageOf(err) }, 'could not mark the liveness key stopped; other hosts take over once it expires');
    });
  }

  private scheduleBeat(delayMs = this.heartbeatMs): void {
    this.beatTimer = setTimeout(() => {
      this.beating = this.beat();
    }, delayMs);
  }

  private async beat(): Promise<void> {
    if (!this.isLive()) return;
    const started = performance.now();
    const incarnation = this.identity.incarnation;
    try {
      const revision = await this.kv.update(this.identity.hostKey, this.value(), this.revision);
      // A loss detected meanwhile started another incarnation; this answer is about the old one.
      if (incarnation !== this.identity.incarnation) return;
      this.revision = revision;
      this.extendUntil(started + this.ttlMs);
      this.view.expectOwn(revision);
    } catch (err) {
      if (this.state !== 'live' || incarnation !== this.identity.incarnation) return;
      if (isWrongLastSequence(err)) {
        if (!(await this.adoptLostAck())) {
          this.lose(`heartbeat refused: ${messageOf(err)}`);
          return;
        }
      } else {
        // A slow or disconnected NATS: keep trying; isLive() ends the liveness at its deadline.
        this.options.logger.warn({ err: messageOf(err) }, 'heartbeat failed; retrying');
      }
    }
    if (this.state === 'live') this.scheduleBeat(Math.max(0, this.heartbeatMs - (performance.now() - started)));
  }

  /**
   * A heartbeat whose acknowledgement was lost still moved the key's revision, so the next
   * update is refused. The key is still ours when it holds our incarnation: only this process
   * writes that value, and a chain of compare-and-set updates cannot survive an expiry.
   */
  private async adoptLostAck(): Promise<boolean> {
    try {
      const entry = await this.kv.get(this.identity.hostKey);
      if (entry?.operation !== 'PUT' || entry.revision <= this.revision) return false;
      if (parseValue(entry.value)?.incarnation !== this.identity.incarnation) return false;
      this.revision = entry.revision;
      return true;
    } catch {
      return false;
    }
  }

  private extendUntil(until: number): void {
    if (this.state !== 'live' || until <= this.liveUntil) return;
    this.liveUntil = until;
    // Notice the end of the window even when no message arrives to check it.
    clearTimeout(this.lossTimer);
    this.lossTimer = setTimeout(() => this.isLive(), Math.max(0, until - performance.now()) + 1);
  }

  private lose(reason: string): void {
    if (this.state !== 'live') return;
    this.state = 'recovering';
    this.clearTimers();
    this.options.logger.error({ incarnation: this.identity.incarnation, reason }, 'host lost its liveness');
    this.options.onLost(reason);
    // Only now that nothing of this incarnation runs may a probe find it gone.
    this.responder.stop();
    void this.recover();
  }

  private async recover(): Promise<void> {
    let pause = 100;
    while (this.state === 'recovering') {
      // Requests sent while disconnected wait out JetStream's 5 s API timeout; after a NATS
      // restart that made the first attempt fail long after the server was back.
      await this.connected;
      if (this.state !== 'recovering') return;
      try {
        this.identity = { ...this.identity, incarnation: randomUUID() };
        this.ownIncarnations.add(this.identity.incarnation);
        this.startedAt = Date.now();
        // The bucket is memory-backed: after a NATS restart it must be created again. Its
        // requests give up within the lease TTL, not JetStream's 5 s: one sent during a NATS
        // election finds no stream leader and is dropped, and waiting it out would keep the
        // host out of the pool for up to 5 s after the new leader is there.
        const js = this.options.nc.jetstream({ ...this.options.js.getOptions(), timeout: this.ttlMs });
        this.kv = await openHostsBucket(js, this.options.prefix, this.ttlMs, this.options.replication);
        // Whatever happened to the bucket, sightings count again from here.
        this.view.rebind(this.kv);
        if (this.state !== 'recovering') return;
        if (!(await this.goLive())) return;
        this.options.logger.info({ incarnation: this.identity.incarnation }, 'host liveness restored');
        this.options.onRecovered();
        return;
      } catch (err) {
        this.options.logger.warn({ err: messageOf(err), retryInMs: pause }, 'could not restore liveness');
        await sleep(pause);
        // Short: after a NATS restart every actor of this host waits for this loop.
        pause = Math.min(pause * 2, RECOVER_PAUSE_MAX_MS);
      }
    }
  }

  /** Writes the key of the current incarnation and starts heartbeating it; false when stopped meanwhile. */
  private async goLive(): Promise<boolean> {
    // Answering probes before the key exists: every ownership record naming this incarnation
    // is written after it, so a probe can never find a live incarnation without a responder.
    const { server: _previous, ...identity } = this.identity;
    const server = this.options.nc.info?.server_name;
    this.identity = { ...identity, ...(server ? { server } : {}), probes: true };
    await this.responder.answerFor(this.identity.incarnation);
    const started = performance.now();
    const revision = await this.claimKey();
    if (this.state === 'stopped') {
      await this.kv.delete(this.identity.hostKey, { previousSeq: revision }).catch(() => undefined);
      return false;
    }
    this.revision = revision;
    this.state = 'live';
    this.liveUntil = 0;
    this.extendUntil(started + this.ttlMs);
    this.scheduleBeat();
    return true;
  }

  /**
   * Creates the key for the current incarnation. A key of an earlier incarnation of this
   * process is replaced (which frees its ownership records at once). A key of another process
   * is waited out: a dead one (a restart under the same id faster than the TTL) expires within
   * a TTL, while one that keeps being rewritten belongs to a live host with the same id, and
   * two such hosts would replace each other's key forever.
   */
  private async claimKey(): Promise<number> {
    const key = this.identity.hostKey;
    const giveUpAt = performance.now() + 2 * this.ttlMs + this.heartbeatMs;
    let heldAt: number | undefined;
    for (;;) {
      try {
        return await this.kv.create(key, this.value());
      } catch (err) {
        if (!isWrongLastSequence(err)) throw err;
      }
      const entry = await this.kv.get(key);
      if (!entry || entry.operation !== 'PUT') continue;
      const holder = parseValue(entry.value);
      // Ours from before a loss, or left by a process under this id that stopped cleanly.
      if (holder && (this.ownIncarnations.has(holder.incarnation) || holder.stopped === true)) {
        try {
          return await this.kv.update(key, this.value(), entry.revision);
        } catch (err) {
          if (!isWrongLastSequence(err)) throw err;
          continue;
        }
      }
      if (heldAt !== undefined && entry.revision !== heldAt) throw duplicateHostId(this.identity.hostId, holder);
      if (heldAt === undefined) {
        heldAt = entry.revision;
        this.options.logger.warn(
          { hostId: this.identity.hostId, holder },
          'the liveness key of this host id is held by another process; waiting to see whether it expires',
        );
      }
      if (performance.now() > giveUpAt) throw duplicateHostId(this.identity.hostId, holder);
      await sleep(Math.min(this.heartbeatMs, 100));
    }
  }

  private value(): string {
    const { hostId, incarnation, server, probes } = this.identity;
    const value: LivenessValue = { hostId, incarnation, startedAt: this.startedAt, ...(server ? { server } : {}), ...(probes ? { probes } : {}) };
    return encode(value);
  }

  /**
   * A dropped connection ends the incarnation at once: other hosts may take its actors over as
   * soon as the server has closed it (a probe finds no responder), and nats.js would otherwise
   * resubscribe their command subjects on reconnect. Status events arrive before any reconnect
   * can complete (that needs network I/O), so this runs first.
   */
  private async followConnection(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.state === 'stopped') {
        this.markConnected();
        return;
      }
      if (status.type === Events.Disconnect) {
        // A reconnect attempt that fails mid-handshake reports a second Disconnect with no
        // Reconnect between: keep the pending promise recover() already waits on.
        if (this.online) this.connected = new Promise((resolve) => (this.markConnected = resolve));
        this.online = false;
        this.lose('the NATS connection dropped');
      } else if (status.type === Events.Reconnect) {
        this.online = true;
        this.markConnected();
      }
    }
  }

  private clearTimers(): void {
    clearTimeout(this.beatTimer);
    clearTimeout(this.lossTimer);
  }
}

/** Longest pause between attempts to restore the liveness (see recover()). */
const RECOVER_PAUSE_MAX_MS = 250;

function openHostsBucket(js: JetStreamClient, prefix: string, ttlMs: number, replication: BucketReplication): Promise<KV> {
  return openBucket(
    js,
    // A heartbeat that cannot complete within the TTL is useless; fail it and let isLive() decide.
    { name: hostsBucketName(prefix), storage: 'memory', ttlMs, timeoutMs: ttlMs },
    replication,
  );
}

function duplicateHostId(hostId: string, holder: LivenessValue | undefined): AppError {
  const since = holder ? ` (incarnation ${holder.incarnation}, started ${new Date(holder.startedAt).toISOString()})` : '';
  return new AppError(
    'conflict',
    `another live actor host already uses host id "${hostId}"${since}; give every replica its own replica_id (--replica-id)`,
  );
}

function parseValue(data: Uint8Array): LivenessValue | undefined {
  const value = decode(data) as Partial<LivenessValue> | undefined;
  return typeof value?.incarnation === 'string' && typeof value.hostId === 'string' ? (value as LivenessValue) : undefined;
}
