/**
 * Request/reply for the actor client's hot path: one inbox subscription and a map of pending
 * replies. nats.js's own request() builds an Error for every request it completes (its
 * cancel path runs after the reply too), which measured 15% of the CPU of a process sending
 * commands at full rate, and a gateway sends one request per client command.
 *
 * Failures are the NatsErrors nats.js would give (Timeout, NoResponders, ConnectionClosed,
 * ConnectionDraining), so callers classify them with nats-errors.ts either way.
 */
import { createInbox, ErrorCode, NatsError, type Msg, type NatsConnection, type Subscription } from 'nats';

interface Pending {
  resolve(msg: Msg): void;
  reject(err: unknown): void;
  timer: NodeJS.Timeout;
}

export class Requester {
  private readonly prefix: string;
  private readonly pending = new Map<string, Pending>();
  private next = 0;
  private sub: Subscription | undefined;

  constructor(private readonly nc: NatsConnection) {
    this.prefix = `${createInbox()}.`;
    // Replies cannot arrive on a closed connection: fail what still waits at once.
    void nc.closed().then(() => this.failAll(NatsError.errorForCode(ErrorCode.ConnectionClosed)));
  }

  /** Publishes `data` to `subject` and resolves with the first reply within `timeoutMs`. */
  request(subject: string, data: string, timeoutMs: number): Promise<Msg> {
    return new Promise<Msg>((resolve, reject) => {
      if (this.nc.isClosed()) {
        reject(NatsError.errorForCode(ErrorCode.ConnectionClosed));
        return;
      }
      const token = (this.next++).toString(36);
      const timer = setTimeout(() => {
        this.pending.delete(token);
        reject(NatsError.errorForCode(ErrorCode.Timeout));
      }, timeoutMs);
      this.pending.set(token, { resolve, reject, timer });
      try {
        // Subscribed before the first publish on the same connection, so the server knows the
        // inbox before any reply to it can exist.
        this.sub ??= this.nc.subscribe(`${this.prefix}*`, { callback: (err, msg) => this.onReply(err, msg) });
        this.nc.publish(subject, data, { reply: this.prefix + token });
      } catch (err) {
        this.settle(token)?.reject(err);
      }
    });
  }

  private onReply(err: NatsError | null, msg: Msg): void {
    if (err) {
      this.sub = undefined;
      this.failAll(err);
      return;
    }
    const pending = this.settle(msg.subject.slice(this.prefix.length));
    if (!pending) return; // timed out already
    // The server answers a request to a subject nobody subscribes with an empty 503 status.
    if (msg.data.length === 0 && msg.headers?.code === 503) pending.reject(NatsError.errorForCode(ErrorCode.NoResponders));
    else pending.resolve(msg);
  }

  /** Removes a pending request and stops its timer; undefined when it is no longer pending. */
  private settle(token: string): Pending | undefined {
    const pending = this.pending.get(token);
    if (!pending) return undefined;
    this.pending.delete(token);
    clearTimeout(pending.timer);
    return pending;
  }

  private failAll(err: unknown): void {
    for (const token of [...this.pending.keys()]) this.settle(token)?.reject(err);
  }
}
