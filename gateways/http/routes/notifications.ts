import type pg from 'pg';
import { AppError } from '../../../errors/index.js';
import {
  deleteNotification,
  listNotifications,
  markAllRead,
  markRead,
  readPreferences,
  updatePreferences,
} from '../../../notifications/index.js';
import * as api from '../../../contracts/http/notifications.js';
import type { EndpointRouter } from '../endpoint-router.js';

export function mountNotificationRoutes(router: EndpointRouter, pool: pg.Pool): void {
  const missing = (id: string) => new AppError('not_found', `you have no notification ${id}`);
  router
    .mount(api.listNotifications, async (ctx, { caller, query }) => {
      ctx.body = await listNotifications(pool, caller.userId, {
        limit: query.limit,
        ...(query.before ? { before: query.before } : {}),
        unreadOnly: query.unread === 'true',
      });
    })
    .mount(api.markNotificationRead, async (ctx, { caller, params }) => {
      if (!(await markRead(pool, caller.userId, params.notificationId))) throw missing(params.notificationId);
      ctx.status = 204;
    })
    .mount(api.markAllNotificationsRead, async (ctx, { caller }) => {
      ctx.body = { marked: await markAllRead(pool, caller.userId) };
    })
    .mount(api.deleteNotification, async (ctx, { caller, params }) => {
      if (!(await deleteNotification(pool, caller.userId, params.notificationId))) throw missing(params.notificationId);
      ctx.status = 204;
    })
    .mount(api.getNotificationPreferences, async (ctx, { caller }) => {
      ctx.body = await readPreferences(pool, caller.userId);
    })
    .mount(api.updateNotificationPreferences, async (ctx, { caller, body }) => {
      const changes = Object.fromEntries(Object.entries(body).filter(([, on]) => on !== undefined));
      ctx.body = await updatePreferences(pool, caller.userId, changes);
    });
}
