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
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { StorageType, type JetStreamClient, type KV } from 'nats';
import type { Logger } from '../../observability/logger.js';
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
}

export interface LivenessOptions {
  js: JetStreamClient;
  prefix: string;
  hostId: string;
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

interface LivenessValue {
  hostId: string;
  incarnation: string;
  startedAt: number;
}

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

  private constructor(
    private kv: KV,
    private readonly options: LivenessOptions,
    /** The bucket's max-age: what really decides when the key vanishes. */
    readonly ttlMs: number,
    private readonly heartbeatMs: number,
  ) {
    this.identity = { hostId: options.hostId, hostKey: hostKey(options.hostId), incarnation: randomUUID() };
  }

  /** Opens the bucket and writes this host's first liveness key. */
  static async start(options: LivenessOptions): Promise<Liveness> {
    const logger = options.logger;
    const kv = await openHostsBucket(options.js, options.prefix, options.leaseTtlMs);
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
    await liveness.goLive();
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

  /** Whether the host of an ownership record still holds its liveness, and for how long at most. */
  async hostLiveness(owner: Pick<HostIdentity, 'hostKey' | 'incarnation'>): Promise<HostLiveness> {
    const entry = await this.kv.get(owner.hostKey);
    if (!entry || entry.operation !== 'PUT') return { alive: false };
    const value = parseValue(entry.value);
    if (value?.incarnation !== owner.incarnation) return { alive: false };
    const expiresIn = entry.created.getTime() + this.ttlMs - Date.now();
    return { alive: true, retryAfterMs: Math.min(this.ttlMs, Math.max(20, expiresIn)) };
  }

  /** Stops heartbeating; with `deleteKey` the key goes at once, so others may take over now. */
  async stop(options: { deleteKey: boolean }): Promise<void> {
    if (this.state === 'stopped') return;
    const wasLive = this.state === 'live';
    this.state = 'stopped';
    this.clearTimers();
    await this.beating;
    if (options.deleteKey && wasLive) {
      await this.kv.delete(this.identity.hostKey, { previousSeq: this.revision }).catch((err: unknown) => {
        this.options.logger.warn({ err: messageOf(err) }, 'could not delete the liveness key; it expires on its own');
      });
    }
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
    void this.recover();
  }

  private async recover(): Promise<void> {
    let pause = 100;
    while (this.state === 'recovering') {
      try {
        this.identity = { ...this.identity, incarnation: randomUUID() };
        this.startedAt = Date.now();
        // The bucket is memory-backed: after a NATS restart it must be created again.
        this.kv = await openHostsBucket(this.options.js, this.options.prefix, this.ttlMs);
        if (this.state !== 'recovering') return;
        if (!(await this.goLive())) return;
        this.options.logger.info({ incarnation: this.identity.incarnation }, 'host liveness restored');
        this.options.onRecovered();
        return;
      } catch (err) {
        this.options.logger.warn({ err: messageOf(err), retryInMs: pause }, 'could not restore liveness');
        await sleep(pause);
        pause = Math.min(pause * 2, this.ttlMs);
      }
    }
  }

  /** Writes the key of the current incarnation and starts heartbeating it; false when stopped meanwhile. */
  private async goLive(): Promise<boolean> {
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
   * Creates the key for the current incarnation. An existing key is a previous incarnation of
   * this host id (a restart faster than the TTL, or this process before a loss): replacing it
   * makes every ownership record of that incarnation free to take over.
   */
  private async claimKey(): Promise<number> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.kv.create(this.identity.hostKey, this.value());
      } catch (err) {
        if (!isWrongLastSequence(err) || attempt >= 3) throw err;
      }
      const entry = await this.kv.get(this.identity.hostKey);
      if (!entry || entry.operation !== 'PUT') continue;
      this.options.logger.warn({ hostKey: this.identity.hostKey }, 'replacing the liveness key of a previous incarnation of this host id');
      try {
        return await this.kv.update(this.identity.hostKey, this.value(), entry.revision);
      } catch (err) {
        if (!isWrongLastSequence(err) || attempt >= 3) throw err;
      }
    }
  }

  private value(): string {
    const value: LivenessValue = { hostId: this.identity.hostId, incarnation: this.identity.incarnation, startedAt: this.startedAt };
    return encode(value);
  }

  private clearTimers(): void {
    clearTimeout(this.beatTimer);
    clearTimeout(this.lossTimer);
  }
}

function openHostsBucket(js: JetStreamClient, prefix: string, ttlMs: number): Promise<KV> {
  return js.views.kv(hostsBucketName(prefix), {
    ttl: ttlMs,
    history: 1,
    storage: StorageType.Memory,
    // A heartbeat that cannot complete within the TTL is useless; fail it and let isLive() decide.
    timeout: ttlMs,
  });
}

function parseValue(data: Uint8Array): LivenessValue | undefined {
  const value = decode(data) as Partial<LivenessValue> | undefined;
  return typeof value?.incarnation === 'string' && typeof value.hostId === 'string' ? (value as LivenessValue) : undefined;
}
