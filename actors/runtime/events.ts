/**
 * Actor events for gateways. A gateway may hold hundreds of sockets in one room; they share
 * one NATS subscription per (type, id) in the process, opened by the first local listener and
 * closed with the last. Create one ActorEvents per process (per NATS connection) for that.
 *
 * Listeners never see seq go backwards: an event whose seq is not above the highest already
 * delivered on its topic is dropped. That drops duplicates and the late events of an older
 * activation that still believed it was live (seq = fence × 2^20 + counter, and fences only
 * grow). Events of a protocol version this build does not know are dropped too.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from '../../observability/index.js';
import type { EventEnvelope } from './actor-type.js';
import { assertActorId, assertTypeName, eventSubject } from './names.js';
import { decode, PROTOCOL_VERSION, versionOf } from './wire.js';

export type ActorEventListener<E = unknown> = (event: EventEnvelope<E>) => void;

interface Topic {
  sub: Subscription;
  /** One entry per subscribe() call, so the same function subscribed twice counts twice. */
  listeners: Set<{ listener: ActorEventListener }>;
}

export class ActorEvents {
  private readonly topics = new Map<string, Topic>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly logger?: Logger,
  ) {}

  /**
   * Calls `listener` with every event of actor `(type, id)` from now on, in publication order.
   * Returns the function that removes this listener (idempotent).
   */
  subscribe<E = unknown>(type: string, id: string, listener: ActorEventListener<E>): () => void {
    assertTypeName(type);
    assertActorId(id);
    const subject = eventSubject(this.prefix, type, id);
    let topic = this.topics.get(subject);
    if (!topic) {
      const listeners = new Set<{ listener: ActorEventListener }>();
      // The highest seq delivered to this topic's listeners; events at or below it are dropped.
      let lastSeq = -Infinity;
      let warnedVersion = false;
      const sub = this.nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          const envelope = parseEvent(decode(msg.data));
          if (!envelope) {
            this.logger?.warn({ subject }, 'dropped a malformed actor event');
            return;
          }
          const version = versionOf(envelope);
          if (version !== PROTOCOL_VERSION) {
            if (!warnedVersion) {
              warnedVersion = true;
              this.logger?.warn(
                { subject, version: envelope.v, speaks: PROTOCOL_VERSION },
                'dropping actor events of a protocol version this build does not speak (logged once per actor)',
              );
            }
            return;
          }
          // An older activation's late event, or a duplicate: listeners already have newer state.
          if (envelope.seq <= lastSeq) return;
          lastSeq = envelope.seq;
          for (const entry of [...listeners]) {
            try {
              entry.listener(envelope);
            } catch (listenerErr) {
              // One broken socket handler must not starve the others of the event.
              this.logger?.error({ err: listenerErr, subject }, 'actor event listener failed');
            }
          }
        },
      });
      topic = { sub, listeners };
      this.topics.set(subject, topic);
    }
    const entry = { listener: listener as ActorEventListener };
    topic.listeners.add(entry);
    const owner = topic;
    return () => {
      if (!owner.listeners.delete(entry) || owner.listeners.size > 0) return;
      owner.sub.unsubscribe();
      if (this.topics.get(subject) === owner) this.topics.delete(subject);
    };
  }

  /** NATS subscriptions held (one per actor with local listeners), for metrics and tests. */
  subscriptionCount(): number {
    return this.topics.size;
  }

  /** Local listeners of one actor. */
  listenerCount(type: string, id: string): number {
    return this.topics.get(eventSubject(this.prefix, type, id))?.listeners.size ?? 0;
  }
}

function parseEvent(value: unknown): EventEnvelope | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { seq, at } = value as Partial<EventEnvelope>;
  return Number.isFinite(seq) && typeof at === 'number' && 'event' in value ? (value as EventEnvelope) : undefined;
}
