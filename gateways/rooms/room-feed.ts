/**
 * The room events one gateway process holds: one NATS subscription per room (through
 * ActorEvents), shared by every socket and stream of that room in the process, and a ring of
 * the room's recent events so that a client that reconnects can be given exactly what it
 * missed.
 *
 * Resume is only offered when the ring provably holds every event after the client's seq.
 * Seqs are not consecutive across activations (seq = fence × 2^20 + counter), so a gap cannot
 * be told from the numbers; instead each topic tracks the seq from which it has seen every
 * event (`coveredFrom`): the seq of a snapshot taken after the subscription was open (every
 * later event reached us), raised to the last seq the ring has dropped. A client whose seq is
 * below it, or above the room's current seq, gets a fresh snapshot instead.
 *
 * Core NATS delivers at most once: across a NATS reconnect events may have been lost, so every
 * topic forgets its coverage and tells its watchers to re-read a snapshot.
 */
import { Events, type NatsConnection } from 'nats';
import { ROOM_ACTOR_TYPE, type RoomEvent } from '../../actors/index.js';
import type { EventEnvelope } from '../../actors/index.js';
import type { ActorEvents } from '../../actors/index.js';
import type { Logger } from '../../observability/index.js';
import { SpanKind, startSpan, tracingEnabled } from '../../observability/index.js';

export interface FeedEvent {
  seq: number;
  /** Server ms at which the room published it. */
  at: number;
  event: RoomEvent;
}

export interface TopicListener {
  event(event: FeedEvent): void;
  /** Events may have been lost (NATS reconnected): the listener must re-read a snapshot. */
  reset(): void;
}

export interface RoomFeedsOptions {
  /** Events kept per room for resumes. Default 1000. */
  ringSize?: number;
  /** How long a room's subscription and ring outlive its last listener, so a lone reconnecting client can resume. Default 60 s. */
  lingerMs?: number;
}

/** One room's subscription, ring and listeners in this process. */
export class RoomTopic {
  private readonly ring: FeedEvent[] = [];
  private readonly listeners = new Set<TopicListener>();
  /** Every event after this seq is in the ring (or was dropped from it only below `droppedThrough`). */
  private coveredFrom: number | undefined;
  private droppedThrough = -Infinity;
  /** The highest seq received. */
  private lastSeq = -Infinity;
  private readonly waiters = new Set<{ seq: number; done: (reached: boolean) => void }>();
  private unsubscribe: (() => void) | undefined;
  private lingerTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly events: ActorEvents,
    readonly roomId: string,
    private readonly ringSize: number,
    private readonly lingerMs: number,
    private readonly onIdle: (topic: RoomTopic) => void,
  ) {
    this.unsubscribe = events.subscribe<RoomEvent>(ROOM_ACTOR_TYPE, roomId, (envelope) => this.receive(envelope));
  }

  /** Starts delivering events to `listener` (from the next one received). */
  add(listener: TopicListener): void {
    clearTimeout(this.lingerTimer);
    this.lingerTimer = undefined;
    this.listeners.add(listener);
  }

  remove(listener: TopicListener): void {
    if (!this.listeners.delete(listener) || this.listeners.size > 0) return;
    clearTimeout(this.lingerTimer);
    this.lingerTimer = setTimeout(() => this.close(), this.lingerMs);
    this.lingerTimer.unref();
  }

  /**
   * A snapshot with this seq was read while the subscription was open, so every event after
   * it has reached (or will reach) this topic.
   */
  covered(snapshotSeq: number): void {
    if (this.coveredFrom === undefined || snapshotSeq < this.coveredFrom) this.coveredFrom = snapshotSeq;
  }

  /**
   * The events after `fromSeq` up to `toSeq` when the ring provably holds all of them, else
   * undefined (the client needs a snapshot).
   */
  missedSince(fromSeq: number, toSeq: number): FeedEvent[] | undefined {
    if (this.coveredFrom === undefined) return undefined;
    if (fromSeq < Math.max(this.coveredFrom, this.droppedThrough) || fromSeq > toSeq) return undefined;
    return this.ring.filter((entry) => entry.seq > fromSeq && entry.seq <= toSeq);
  }

  /**
   * Resolves true once the event with `seq` (or a later one) has arrived, false after
   * `timeoutMs`. A snapshot's seq can be ahead of what this topic has received: the events
   * it counts may still be in flight from NATS.
   */
  reached(seq: number, timeoutMs: number): Promise<boolean> {
    if (this.lastSeq >= seq) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter = {
        seq,
        done: (reached: boolean) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          resolve(reached);
        },
      };
      const timer = setTimeout(() => waiter.done(false), timeoutMs);
      this.waiters.add(waiter);
    });
  }

  /** NATS reconnected: what was missed meanwhile is unknown. */
  reset(): void {
    this.coveredFrom = undefined;
    this.ring.length = 0;
    this.droppedThrough = -Infinity;
    this.lastSeq = -Infinity;
    for (const waiter of [...this.waiters]) waiter.done(false);
    for (const listener of [...this.listeners]) listener.reset();
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  close(): void {
    clearTimeout(this.lingerTimer);
    for (const waiter of [...this.waiters]) waiter.done(false);
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.onIdle(this);
  }

  private receive(envelope: EventEnvelope<RoomEvent>): void {
    const entry: FeedEvent = { seq: envelope.seq, at: envelope.at, event: envelope.event };
    if (!tracingEnabled() || envelope.traceparent === undefined) {
      this.deliver(entry);
      return;
    }
    // In the trace of the turn that published it: the delivery to this process's sockets.
    const traced = startSpan('room.fanout', {
      kind: SpanKind.CONSUMER,
      parent: envelope,
      attributes: () => ({ 'svc.room.id': this.roomId, 'svc.event.seq': entry.seq, 'svc.event.type': entry.event.type, 'svc.listeners': this.listeners.size }),
    });
    try {
      this.deliver(entry);
    } finally {
      traced?.span.end();
    }
  }

  /** Keeps the event for resumes and hands it to every listener (the sockets' sends are synchronous). */
  private deliver(entry: FeedEvent): void {
    this.ring.push(entry);
    if (this.ring.length > this.ringSize) this.droppedThrough = this.ring.shift()!.seq;
    this.lastSeq = entry.seq;
    for (const waiter of [...this.waiters]) if (waiter.seq <= entry.seq) waiter.done(true);
    for (const listener of [...this.listeners]) listener.event(entry);
  }
}

export class RoomFeeds {
  private readonly topics = new Map<string, RoomTopic>();
  private readonly ringSize: number;
  private readonly lingerMs: number;

  constructor(
    private readonly events: ActorEvents,
    nats: NatsConnection,
    private readonly logger: Logger,
    options: RoomFeedsOptions = {},
  ) {
    this.ringSize = options.ringSize ?? 1000;
    this.lingerMs = options.lingerMs ?? 60_000;
    void this.watchConnection(nats);
  }

  /** The topic of a room, subscribing when this process holds none yet. */
  topic(roomId: string): RoomTopic {
    let topic = this.topics.get(roomId);
    if (!topic) {
      topic = new RoomTopic(this.events, roomId, this.ringSize, this.lingerMs, (idle) => {
        if (this.topics.get(idle.roomId) === idle) this.topics.delete(idle.roomId);
      });
      this.topics.set(roomId, topic);
    }
    return topic;
  }

  /** Rooms with a subscription in this process (lingering ones included). */
  roomCount(): number {
    return this.topics.size;
  }

  close(): void {
    for (const topic of [...this.topics.values()]) topic.close();
  }

  private async watchConnection(nats: NatsConnection): Promise<void> {
    for await (const status of nats.status()) {
      if (status.type !== Events.Reconnect) continue;
      this.logger.warn({ rooms: this.topics.size }, 'NATS reconnected: room events may have been lost, clients get fresh snapshots');
      for (const topic of this.topics.values()) topic.reset();
    }
  }
}
