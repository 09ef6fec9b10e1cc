/**
 * The signed-in user's notifications as the header bell shows them: the newest page of the
 * inbox, loaded once per sign-in, and those pushed live on an open room's socket since.
 */
import { signal } from '@preact/signals';
import type { Notification } from '../../../contracts/notifications.js';
import { api, call } from '../api/client.js';

const SHOWN = 10;

export const notifications = signal<Notification[]>([]);
export const unreadCount = signal(0);

export async function loadNotifications(): Promise<void> {
  const page = await call(api.GET('/api/me/notifications', { params: { query: { limit: SHOWN } } }));
  notifications.value = page.notifications;
  unreadCount.value = page.unread;
}

/** One pushed live (a room socket's `notification` message); the same one twice is once. */
export function receiveNotification(note: Notification): void {
  if (notifications.value.some((known) => known.id === note.id)) return;
  notifications.value = [note, ...notifications.value].slice(0, SHOWN);
  if (note.readAt === null) unreadCount.value += 1;
}

export async function markAllRead(): Promise<void> {
  await call(api.POST('/api/me/notifications/read-all'));
  const now = Date.now();
  notifications.value = notifications.value.map((note) => (note.readAt === null ? { ...note, readAt: now } : note));
  unreadCount.value = 0;
}
