/**
 * Chat rows of a room. Chat is never held in memory by the actor: every message is written
 * (fenced) before it is acknowledged, and history is read straight from PostgreSQL.
 */
import type pg from 'pg';
import { AppError } from '../../../errors/index.js';
import type { ChatMessage, ChatReplyTo } from '../../../contracts/room/model.js';
import { excerptOf } from '../../../contracts/room/chat-excerpt.js';
import { withReactions } from './reaction-store.js';

type Db = Pick<pg.PoolClient, 'query'>;

export interface MessageRow {
  id: string;
  user_id: string;
  name: string;
  text: string;
  pinned: boolean;
  created_at: Date;
  reply_to: string | null;
  edited_at: Date | null;
  mentions: string[];
  /** The answered message's, when it still exists (joined by MESSAGES). */
  reply_user_id?: string | null;
  reply_name?: string | null;
  reply_text?: string | null;
}

/** Messages with what their replies quote: the answered message as it is now, if it still exists. */
const MESSAGES = `SELECT m.id, m.user_id, m.name, m.text, m.pinned, m.created_at, m.reply_to, m.edited_at, m.mentions,
    r.user_id AS reply_user_id, r.name AS reply_name, r.text AS reply_text
  FROM chat_messages m LEFT JOIN chat_messages r ON r.room_id = m.room_id AND r.id = m.reply_to`;

function replyOf(row: MessageRow): ChatReplyTo | undefined {
  if (row.reply_to === null) return undefined;
  const id = String(row.reply_to);
  if (row.reply_user_id == null || row.reply_name == null || row.reply_text == null) return { id, deleted: true, userId: '', name: '', excerpt: '' };
  return { id, deleted: false, userId: row.reply_user_id, name: row.reply_name, excerpt: excerptOf(row.reply_text) };
}

export function messageFromRow(row: MessageRow): ChatMessage {
  const replyTo = replyOf(row);
  return {
    id: String(row.id),
    userId: row.user_id,
    name: row.name,
    text: row.text,
    pinned: row.pinned,
    createdAt: row.created_at.getTime(),
    reactions: [],
    ...(replyTo ? { replyTo } : {}),
    ...(row.edited_at ? { editedAt: row.edited_at.getTime() } : {}),
    mentions: row.mentions,
  };
}

export interface NewMessage {
  userId: string;
  name: string;
  text: string;
  /** Idempotency key; a second insert with the same key returns the first message. */
  commandId: string;
  /** The answered message's id. */
  replyTo: string | null;
  /** User ids the text mentions. */
  mentions: string[];
  /**
   * The actor's clock (core.now()), as every other time in the room is: the edit window is
   * measured on the same clock, and tests can move it.
   */
  createdAt: number;
}

/** The message stored earlier under an idempotency key, for a send that repeated it. */
export async function findByCommandId(db: Db, roomId: string, commandId: string): Promise<{ message: ChatMessage; created: false }> {
  const { rows } = await db.query<MessageRow>(`${MESSAGES} WHERE m.room_id = $1 AND m.command_id = $2`, [
    roomId,
    commandId,
  ]);
  const first = rows[0];
  // Only if the first copy was deleted since (by its author or retention).
  if (!first) throw new AppError('conflict', 'this message was sent before and has since been deleted');
  const [message = messageFromRow(first)] = await withReactions(db, [messageFromRow(first)]);
  return { message, created: false };
}

/** Whether the message first sent under an idempotency key is still stored (not deleted since). */
export async function messageStands(db: Db, roomId: string, commandId: string): Promise<boolean> {
  const { rowCount } = await db.query('SELECT 1 FROM chat_messages WHERE room_id = $1 AND command_id = $2', [roomId, commandId]);
  return (rowCount ?? 0) > 0;
}

/** The message, row-locked for the rest of the transaction, or null. */
export async function lockMessage(db: Db, roomId: string, id: string): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(
    `${MESSAGES} WHERE m.room_id = $1 AND m.id = $2 FOR UPDATE OF m`,
    [roomId, id],
  );
  return rows[0] ? ((await withReactions(db, [messageFromRow(rows[0])]))[0] ?? null) : null;
}

export async function deleteMessage(db: Db, roomId: string, id: string): Promise<void> {
  await db.query('DELETE FROM chat_messages WHERE room_id = $1 AND id = $2', [roomId, id]);
}

export async function countPinned(db: Db, roomId: string): Promise<number> {
  const { rows } = await db.query<{ count: string }>(
    'SELECT count(*) FROM chat_messages WHERE room_id = $1 AND pinned',
    [roomId],
  );
  return Number(rows[0]?.count ?? 0);
}

export async function setPinned(db: Db, roomId: string, id: string, pinned: boolean): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(
    `WITH m AS (UPDATE chat_messages SET pinned = $3 WHERE room_id = $1 AND id = $2 RETURNING *)
     ${MESSAGES.replace('FROM chat_messages m', 'FROM m')}`,
    [roomId, id, pinned],
  );
  return rows[0] ? ((await withReactions(db, [messageFromRow(rows[0])]))[0] ?? null) : null;
}

/** The author's edit: new text and mentions, stamped with the actor's clock. */
export async function editMessage(db: Db, roomId: string, id: string, text: string, mentions: string[], at: number): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(
    `WITH m AS (UPDATE chat_messages SET text = $3, mentions = $4, edited_at = to_timestamp($5::double precision / 1000)
       WHERE room_id = $1 AND id = $2 RETURNING *)
     ${MESSAGES.replace('FROM chat_messages m', 'FROM m')}`,
    [roomId, id, text, mentions, at],
  );
  return rows[0] ? ((await withReactions(db, [messageFromRow(rows[0])]))[0] ?? null) : null;
}

/** The message if it is in this room's chat now (read outside a transaction: a reply's target). */
export async function findMessage(db: Db, roomId: string, id: string): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(`${MESSAGES} WHERE m.room_id = $1 AND m.id = $2`, [roomId, id]);
  return rows[0] ? messageFromRow(rows[0]) : null;
}

/** Up to `limit` messages older than `before` (or the newest), newest first. */
export async function history(db: Db, roomId: string, before: string | undefined, limit: number): Promise<ChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `${MESSAGES}
     WHERE m.room_id = $1 AND ($2::bigint IS NULL OR m.id < $2::bigint)
     ORDER BY m.id DESC LIMIT $3`,
    [roomId, before ?? null, limit],
  );
  return withReactions(db, rows.map(messageFromRow));
}

export async function pinnedMessages(db: Db, roomId: string, before: string | undefined, limit: number): Promise<ChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `${MESSAGES}
     WHERE m.room_id = $1 AND m.pinned AND ($2::bigint IS NULL OR m.id < $2::bigint)
     ORDER BY m.id DESC LIMIT $3`,
    [roomId, before ?? null, limit],
  );
  return withReactions(db, rows.map(messageFromRow));
}
