/** The signed-in user's notification inbox and preferences. A leaf module (zod and the error codes only). */
import { z } from 'zod';
import { NOTIFICATION_KINDS } from '../notifications.js';
import { defineEndpoint } from './endpoint.js';

const notificationId = z.string().regex(/^[1-9][0-9]{0,17}$/, { error: 'must be a notification id (a positive decimal integer)' });

const common = {
  id: z.string().meta({ description: 'Decimal id; larger ids are newer.' }),
  userId: z.string(),
  createdAt: z.number().int().meta({ description: 'Server ms since the epoch.' }),
  readAt: z.number().int().nullable(),
};

export const NotificationView = z
  .discriminatedUnion('kind', [
    z.object({
      ...common,
      kind: z.literal('review.decided'),
      review: z.enum(['registration', 'room']),
      approved: z.boolean(),
      reason: z.string().optional(),
      roomId: z.string().optional(),
      roomName: z.string().optional(),
    }),
    z.object({ ...common, kind: z.literal('join_request.decided'), roomId: z.string(), roomName: z.string(), approved: z.boolean() }),
    z.object({ ...common, kind: z.literal('room.role_changed'), roomId: z.string(), roomName: z.string(), role: z.enum(['admin', 'member', 'guest']) }),
    z.object({ ...common, kind: z.literal('chat.mention'), roomId: z.string(), roomName: z.string(), messageId: z.string(), by: z.string(), excerpt: z.string() }),
  ])
  .meta({ id: 'Notification' });

export const NotificationPreferencesView = z
  .object(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodBoolean>)
  .meta({ id: 'NotificationPreferences', description: 'Per kind: whether it is stored in the inbox and pushed on open sockets.' });

export const listNotifications = defineEndpoint({
  method: 'get',
  path: '/api/me/notifications',
  operationId: 'listNotifications',
  summary: 'The inbox, newest first, with the unread count',
  tags: ['notifications'],
  access: 'user',
  query: z.strictObject({
    before: notificationId.optional().meta({ description: 'The `nextBefore` of the previous page.' }),
    limit: z.coerce.number().int().min(1).max(100).default(50),
    unread: z.enum(['true', 'false']).optional().meta({ description: 'Only unread notifications.' }),
  }),
  responses: {
    200: {
      description: 'One page of the inbox',
      schema: z.object({ notifications: z.array(NotificationView), nextBefore: z.string().nullable(), unread: z.number().int() }),
    },
  },
  errors: ['unauthenticated', 'forbidden'],
});

export const markNotificationRead = defineEndpoint({
  method: 'post',
  path: '/api/me/notifications/{notificationId}/read',
  operationId: 'markNotificationRead',
  summary: 'Mark one notification read (again is fine)',
  tags: ['notifications'],
  access: 'user',
  params: z.object({ notificationId }),
  responses: { 204: { description: 'Marked read' } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const markAllNotificationsRead = defineEndpoint({
  method: 'post',
  path: '/api/me/notifications/read-all',
  operationId: 'markAllNotificationsRead',
  summary: 'Mark every notification read',
  tags: ['notifications'],
  access: 'user',
  responses: { 200: { description: 'How many were unread', schema: z.object({ marked: z.number().int() }) } },
  errors: ['unauthenticated', 'forbidden'],
});

export const deleteNotification = defineEndpoint({
  method: 'delete',
  path: '/api/me/notifications/{notificationId}',
  operationId: 'deleteNotification',
  summary: 'Remove one notification from the inbox',
  tags: ['notifications'],
  access: 'user',
  params: z.object({ notificationId }),
  responses: { 204: { description: 'Removed' } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const getNotificationPreferences = defineEndpoint({
  method: 'get',
  path: '/api/me/notification-preferences',
  operationId: 'getNotificationPreferences',
  summary: 'Which notification kinds the user receives',
  tags: ['notifications'],
  access: 'user',
  responses: { 200: { description: 'Every kind with its switch', schema: NotificationPreferencesView } },
  errors: ['unauthenticated', 'forbidden'],
});

export const updateNotificationPreferences = defineEndpoint({
  method: 'patch',
  path: '/api/me/notification-preferences',
  operationId: 'updateNotificationPreferences',
  summary: 'Turn notification kinds on or off; kinds not given keep their switch',
  tags: ['notifications'],
  access: 'user',
  body: z.strictObject(Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, z.boolean().optional()])) as Record<(typeof NOTIFICATION_KINDS)[number], z.ZodOptional<z.ZodBoolean>>),
  responses: { 200: { description: 'Every kind with its switch', schema: NotificationPreferencesView } },
  errors: ['unauthenticated', 'forbidden'],
});
