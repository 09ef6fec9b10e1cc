import type { NatsConnection } from 'nats';
import type { Logger } from '../observability/index.js';
import type { Notification } from '../contracts/notifications.js';
import { notificationSubject } from './subjects.js';

/** Announces a stored notification to the gateways holding the user's sockets. */
export interface NotificationPublisher {
  publish(notification: Notification): void;
}

/**
 * Live delivery is best effort on purpose: the notification is already in the inbox, which a
 * client reads when it connects; a lost announcement only delays it to then.
 */
export function natsNotificationPublisher(nc: NatsConnection, prefix: string, logger: Logger): NotificationPublisher {
  return {
    publish(notification) {
      try {
        nc.publish(notificationSubject(prefix, notification.userId), JSON.stringify(notification));
      } catch (err) {
        logger.warn({ err, userId: notification.userId }, 'could not announce a notification; it waits in the inbox');
      }
    },
  };
}
