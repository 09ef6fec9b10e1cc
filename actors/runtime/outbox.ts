import type { NatsConnection } from 'nats';

/**
 * Coalesces a host's replies and events into one socket write per event-loop turn.
 *
 * nats.js flushes its outbound buffer one microtask after the first publish into an empty
 * buffer. Turns of many actors finish at different microtask depths, so without this a host
 * under load made several small writes per network read, and those writes were a fifth of its
 * CPU. Holding publishes until setImmediate costs no measurable latency (the check phase
 * comes right after the poll phase that delivered the commands) and keeps each publisher's
 * order, which is what events' seq order relies on.
 */
export class Outbox {
  private queue: Array<{ subject: string; data: string }> = [];
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly nc: NatsConnection,
    /** A publish that failed (the connection is closing); lost replies and events are what clients already handle. */
    private readonly onError: (err: unknown, subject: string) => void,
  ) {}

  publish(subject: string, data: string): void {
    this.queue.push({ subject, data });
    this.scheduled ??= setImmediate(() => this.flush());
  }

  /** Hands everything queued to the connection now (before it is drained or closed). */
  flush(): void {
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    const queue = this.queue;
    this.queue = [];
    for (const { subject, data } of queue) {
      try {
        this.nc.publish(subject, data);
      } catch (err) {
        this.onError(err, subject);
      }
    }
  }
}
