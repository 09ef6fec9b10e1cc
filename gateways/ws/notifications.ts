/**
 * Live notifications for the users with sockets in this process: one NATS subscription per
 * user (on `notificationSubject(prefix, userId)`), opened by the user's first socket and closed
 * with the last, whatever rooms those sockets are in. The inbox in PostgreSQL stays the record;
 * this only forwards what is announced while a socket is open.
 */
import type { NatsConnection, Subscription } from 'nats';
import type { Notification } from '../../contracts/notifications.js';
import { notificationSubject } from '../../notifications/index.js';
import type { Logger } from '../../observability/index.js';

export type NotificationListener = (notification: Notification) => void;

interface UserTopic {
  sub: Subscription;
  listeners: Set<{ listener: NotificationListener }>;
}

export class UserNotifications {
  private readonly users = new Map<string, UserTopic>();

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly logger: Logger,
  ) {}

  /** Calls `listener` with each notification announced for `userId`; returns the unsubscribe (idempotent). */
  subscribe(userId: string, listener: NotificationListener): () => void {
    let topic = this.users.get(userId);
    if (!topic) {
      const listeners = new Set<{ listener: NotificationListener }>();
      const subject = notificationSubject(this.prefix, userId);
      const sub = this.nc.subscribe(subject, {
        callback: (err, msg) => {
          if (err) return;
          const notification = parseNotification(msg.data, userId);
          if (!notification) {
            this.logger.warn({ subject }, 'dropped a malformed notification');
            return;
          }
          for (const entry of [...listeners]) {
            try {
              entry.listener(notification);
            } catch (listenerErr) {
              this.logger.error({ err: listenerErr, subject }, 'notification listener failed');
            }
          }
        },
      });
      topic = { sub, listeners };
      this.users.set(userId, topic);
    }
    const entry = { listener };
    topic.listeners.add(entry);
    const owner = topic;
    return () => {
      if (!owner.listeners.delete(entry) || owner.listeners.size > 0) return;
      owner.sub.unsubscribe();
      if (this.users.get(userId) === owner) this.users.delete(userId);
    };
  }

  /** NATS subscriptions held (one per user with a socket here). */
  subscriptionCount(): number {
    return this.users.size;
  }
}

const decoder = new TextDecoder();

function parseNotification(data: Uint8Array, userId: string): Notification | undefined {
  let value: unknown;
  try {
    value = JSON.parse(decoder.decode(data));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { id, kind, userId: owner, createdAt } = value as Partial<Notification>;
  // A notification names its user; one that names another is not for this subject's sockets.
  if (typeof id !== 'string' || typeof kind !== 'string' || owner !== userId || typeof createdAt !== 'number') return undefined;
  return value as Notification;
}
