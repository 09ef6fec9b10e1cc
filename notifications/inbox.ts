/**
 * The inbox in PostgreSQL. `recordNotification` takes the client of the transaction that
 * makes the decision it reports, so both commit or neither does.
 */
import type pg from 'pg';
import { NOTIFICATION_KINDS, type Notification, type NotificationKind, type NotificationPayload } from '../contracts/notifications.js';

/** Kind -> whether the user receives it; every kind is on unless the user turned it off. */
export type NotificationPreferences = Record<NotificationKind, boolean>;

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

interface NotificationRow {
  id: string;
  user_id: string;
  payload: NotificationPayload;
  created_at: Date;
  read_at: Date | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function fromRow(row: NotificationRow): Notification {
  return { ...row.payload, id: row.id, userId: row.user_id, createdAt: row.created_at.getTime(), readAt: row.read_at?.getTime() ?? null };
}

/**
 * Stores a notification for `userId` unless they turned its kind off; undefined when nothing
 * was stored (turned off, or not an account: guests have no inbox).
 */
export async function recordNotification(db: Queryable, userId: string, payload: NotificationPayload): Promise<Notification | undefined> {
  if (!UUID.test(userId)) return undefined;
  const { rows } = await db.query<NotificationRow>(
    `INSERT INTO notifications (user_id, kind, payload)
     SELECT id, $2, $3 FROM users WHERE id = $1 AND COALESCE((notification_preferences ->> $2)::boolean, true)
     RETURNING id::text, user_id::text, payload, created_at, read_at`,
    [userId, payload.kind, JSON.stringify(payload)],
  );
  return rows[0] ? fromRow(rows[0]) : undefined;
}

export interface InboxPage {
  notifications: Notification[];
  /** Pass as `before` for the next (older) page; null on the last page. */
  nextBefore: string | null;
  unread: number;
}

export async function listNotifications(
  db: Queryable,
  userId: string,
  options: { before?: string; limit: number; unreadOnly?: boolean },
): Promise<InboxPage> {
  const { rows } = await db.query<NotificationRow>(
    // Ordered by the column, not the text it is output as ("10" sorts before "9").
    `SELECT n.id::text, n.user_id::text, n.payload, n.created_at, n.read_at FROM notifications n
     WHERE n.user_id = $1 AND ($2::bigint IS NULL OR n.id < $2) AND (NOT $3 OR n.read_at IS NULL)
     ORDER BY n.id DESC LIMIT $4`,
    [userId, options.before ?? null, options.unreadOnly === true, options.limit + 1],
  );
  const page = rows.slice(0, options.limit).map(fromRow);
  const unread = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return { notifications: page, nextBefore: rows.length > options.limit ? page.at(-1)!.id : null, unread: unread.rows[0]!.n };
}

/** Marks one notification read; false when the user has none with that id. Reading twice is fine. */
export async function markRead(db: Queryable, userId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE notifications SET read_at = COALESCE(read_at, now()) WHERE user_id = $1 AND id = $2', [userId, id]);
  return (rowCount ?? 0) > 0;
}

export async function markAllRead(db: Queryable, userId: string): Promise<number> {
  const { rowCount } = await db.query('UPDATE notifications SET read_at = now() WHERE user_id = $1 AND read_at IS NULL', [userId]);
  return rowCount ?? 0;
}

export async function deleteNotification(db: Queryable, userId: string, id: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM notifications WHERE user_id = $1 AND id = $2', [userId, id]);
  return (rowCount ?? 0) > 0;
}

function preferencesOf(stored: Record<string, unknown>): NotificationPreferences {
  return Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, stored[kind] !== false])) as NotificationPreferences;
}

export async function readPreferences(db: Queryable, userId: string): Promise<NotificationPreferences> {
  const { rows } = await db.query<{ p: Record<string, unknown> }>('SELECT notification_preferences AS p FROM users WHERE id = $1', [userId]);
  return preferencesOf(rows[0]?.p ?? {});
}

/** Merges the given kinds into the user's preferences and returns them all. */
export async function updatePreferences(db: Queryable, userId: string, changes: Partial<NotificationPreferences>): Promise<NotificationPreferences> {
  const { rows } = await db.query<{ p: Record<string, unknown> }>(
    'UPDATE users SET notification_preferences = notification_preferences || $2::jsonb WHERE id = $1 RETURNING notification_preferences AS p',
    [userId, JSON.stringify(changes)],
  );
  return preferencesOf(rows[0]?.p ?? {});
}

/** Notifications are news, not records: the worker removes those older than this. */
export const NOTIFICATION_RETENTION_DAYS = 90;

export async function purgeOldNotifications(db: Queryable): Promise<number> {
  const { rowCount } = await db.query(`DELETE FROM notifications WHERE created_at < now() - make_interval(days => $1)`, [NOTIFICATION_RETENTION_DAYS]);
  return rowCount ?? 0;
}
