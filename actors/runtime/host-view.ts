/**
 * This host's own observation of the other hosts' heartbeats: a KV watch on the hosts bucket.
 *
 * A missing liveness key does not prove that its host stopped serving. Keys vanish together
 * when NATS restarts (the bucket is memory-backed), when the bucket's stream is lost or
 * deleted, or when the NATS server's clock jumps forward, while every owner still counts its
 * own window from its last successful heartbeat. So a takeover must rest on something the
 * taker saw itself: the last heartbeat of the owner's incarnation that this watch delivered,
 * on this host's monotonic clock. The owner's window ends at most one TTL after that
 * heartbeat was sent, and it was sent before it was delivered here.
 *
 * That holds only while the watch is continuous: a heartbeat it never delivered could extend
 * the owner's window without this host knowing. So the watch counts only from when it
 * (re)started, and it restarts — forgetting nothing, but moving `since` forward — whenever
 * continuity is in doubt: the NATS connection dropped, the bucket was re-created (revisions
 * went backwards), the iterator ended, or this host's own acknowledged heartbeat did not
 * come through the watch within `lagLimitMs` (the canary: nats.js resets an ordered
 * consumer on its own, and could skip messages of a re-created stream silently).
 */
import { Events, type KV, type KvEntry, type NatsConnection, type QueuedIterator } from 'nats';
import type { Logger } from '../../observability/index.js';
import { messageOf } from './nats-errors.js';

/** What a host's liveness key holds (written by liveness.ts). */
export interface LivenessValue {
  hostId: string;
  incarnation: string;
  startedAt: number;
  /** Written by a host that stopped cleanly: nothing is owned under this incarnation. */
  stopped?: boolean;
  /**
   * The NATS server (its `server_name`) of the connection this incarnation lives on, and that
   * it answers liveness probes there (liveness-probe.ts). Both absent from builds before them.
   */
  server?: string;
  probes?: boolean;
}

/** Sightings kept before old ones are pruned, and how old they must be (well beyond any TTL). */
const PRUNE_ABOVE = 256;
const PRUNE_AFTER_MS = 600_000;

interface Sighting {
  incarnation: string;
  /** performance.now() when this host received the heartbeat. */
  at: number;
  server: string | undefined;
  probes: boolean;
}

/** A host seen heartbeating within a TTL that answers probes: a witness that its server's interest is visible from here. */
export interface Witness {
  hostKey: string;
  incarnation: string;
}

export class HostView {
  private readonly seen = new Map<string, Sighting>();
  private iterator: QueuedIterator<KvEntry> | undefined;
  /** performance.now() from when every heartbeat stored is delivered; undefined while not watching. */
  private since: number | undefined;
  private lastRevision = 0;
  /** This host's own heartbeat that the watch has not delivered yet: the canary. */
  private ownPending: { revision: number; at: number } | undefined;
  private generation = 0;
  private stopped = false;

  constructor(
    nc: NatsConnection,
    private kv: KV,
    private readonly options: { logger: Logger; lagLimitMs: number; parse(data: Uint8Array): LivenessValue | undefined },
  ) {
    void this.followConnection(nc).catch((err: unknown) => options.logger.warn({ err: messageOf(err) }, 'stopped following the NATS connection status'));
    this.restart('started');
  }

  /**
   * When this host may consider `incarnation` of `hostKey` gone for good, given that its key is
   * absent now: one `ttlMs` after the later of its last heartbeat seen here and the start of
   * the current continuous watch. Returns ms still to wait (0: now).
   */
  waitBeforeTakeover(hostKey: string, incarnation: string, ttlMs: number, now = performance.now()): number {
    this.checkCanary(now);
    if (this.since === undefined) return ttlMs;
    const sighting = this.seen.get(hostKey);
    const lastSeen = sighting?.incarnation === incarnation ? sighting.at : -Infinity;
    return Math.max(0, Math.max(this.since, lastSeen) + ttlMs - now);
  }

  /** ms left on `incarnation`'s last heartbeat seen here, or 0 when none was seen within `ttlMs`. */
  aliveFor(hostKey: string, incarnation: string, ttlMs: number, now = performance.now()): number {
    const sighting = this.seen.get(hostKey);
    if (sighting?.incarnation !== incarnation) return 0;
    return Math.max(0, sighting.at + ttlMs - now);
  }

  /** Live hosts (heartbeat seen within `ttlMs`) on NATS server `server` that answer probes, `except` one host key. */
  witnessesOn(server: string, except: string, ttlMs: number, now = performance.now()): Witness[] {
    const found: Witness[] = [];
    for (const [hostKey, sighting] of this.seen) {
      if (hostKey !== except && sighting.probes && sighting.server === server && now - sighting.at < ttlMs) {
        found.push({ hostKey, incarnation: sighting.incarnation });
      }
    }
    return found;
  }

  /** This host's own heartbeat was acknowledged at `revision`: the watch must deliver it soon. */
  expectOwn(revision: number, now = performance.now()): void {
    if (revision > this.lastRevision && this.ownPending === undefined) this.ownPending = { revision, at: now };
    // Sightings older than a TTL decide nothing any more (see waitBeforeTakeover); hosts that
    // came and went would otherwise stay here for the life of the process.
    if (this.seen.size > PRUNE_ABOVE) {
      for (const [key, sighting] of this.seen) if (now - sighting.at > PRUNE_AFTER_MS) this.seen.delete(key);
    }
  }

  /** After the hosts bucket was re-created: watch the new one, from now. */
  rebind(kv: KV): void {
    this.kv = kv;
    this.restart('the hosts bucket was opened again');
  }

  /** Stops watching (the connection's status stream ends with the connection). */
  stop(): void {
    this.stopped = true;
    this.since = undefined;
    this.iterator?.stop();
  }

  private checkCanary(now: number): void {
    const pending = this.ownPending;
    if (pending && now - pending.at > this.options.lagLimitMs) {
      this.restart(`the watch did not deliver this host's heartbeat ${pending.revision} within ${this.options.lagLimitMs} ms`);
    }
  }

  private restart(reason: string): void {
    if (this.stopped) return;
    this.generation += 1;
    const generation = this.generation;
    this.iterator?.stop();
    this.iterator = undefined;
    // Set before the watch exists: every heartbeat stored from now on is delivered (the newest
    // value per key first), so sightings count from here.
    this.since = performance.now();
    this.lastRevision = 0;
    this.ownPending = undefined;
    this.options.logger.debug({ reason }, 'watching the hosts bucket');
    void this.watch(generation);
  }

  private async watch(generation: number): Promise<void> {
    let pause = 50;
    while (!this.stopped && generation === this.generation) {
      try {
        const iterator = await this.kv.watch();
        if (generation !== this.generation || this.stopped) {
          iterator.stop();
          return;
        }
        this.iterator = iterator;
        for await (const entry of iterator) {
          if (generation !== this.generation) return;
          this.observe(entry);
        }
        if (generation !== this.generation || this.stopped) return;
        // Ended by itself (the consumer could not be re-created): continuity is lost.
        this.restart('the watch ended');
        return;
      } catch (err) {
        if (generation !== this.generation || this.stopped) return;
        this.since = undefined;
        this.options.logger.warn({ err: messageOf(err), retryInMs: pause }, 'cannot watch the hosts bucket; no takeovers meanwhile');
        await new Promise((resolve) => setTimeout(resolve, pause));
        pause = Math.min(pause * 2, 1_000);
        // Watching again from scratch: whatever was delivered before is not a continuous view.
        this.since = performance.now();
      }
    }
  }

  private observe(entry: KvEntry): void {
    const now = performance.now();
    if (entry.revision <= this.lastRevision) {
      // Revisions only grow in one stream: the bucket was deleted and created again.
      this.restart('hosts bucket revisions went backwards');
      return;
    }
    this.lastRevision = entry.revision;
    if (this.ownPending && entry.revision >= this.ownPending.revision) this.ownPending = undefined;
    if (entry.operation !== 'PUT') return;
    const value = this.options.parse(entry.value);
    if (value) this.seen.set(entry.key, { incarnation: value.incarnation, at: now, server: value.server, probes: value.probes === true });
  }

  private async followConnection(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.stopped) return;
      if (status.type === Events.Disconnect) {
        // Heartbeats stored while this host cannot hear them may extend any owner's window.
        this.since = undefined;
      } else if (status.type === Events.Reconnect) {
        this.restart('reconnected to NATS');
      }
    }
  }
}
