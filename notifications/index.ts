/**
 * The public surface of notifications/: what code outside notifications/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { deleteNotification, listNotifications, markAllRead, markRead, purgeOldNotifications, readPreferences, recordNotification, updatePreferences } from './inbox.js';
export { natsNotificationPublisher, type NotificationPublisher } from './publisher.js';
export { notificationSubject } from './subjects.js';
