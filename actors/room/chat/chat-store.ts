/**
 * Chat rows of a room. Chat is never held in memory by the actor: every message is written
 * (fenced) before it is acknowledged, and history is read straight from PostgreSQL.
 */
import type pg from 'pg';
import { AppError } from '../../../errors/app-error.js';
import type { ChatMessage } from '../../../contracts/room/model.js';
import { withReactions } from './reaction-store.js';

type Db = Pick<pg.PoolClient, 'query'>;

export interface MessageRow {
  id: string;
  user_id: string;
  name: string;
  text: string;
  pinned: boolean;
  created_at: Date;
}

const COLUMNS = 'id, user_id, name, text, pinned, created_at';

export function messageFromRow(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    userId: row.user_id,
    name: row.name,
    text: row.text,
    pinned: row.pinned,
    createdAt: row.created_at.getTime(),
    reactions: [],
  };
}

export interface NewMessage {
  userId: string;
  name: string;
  text: string;
  /** Idempotency key; a second insert with the same key returns the first message. */
  commandId: string;
}

/** The message stored earlier under an idempotency key, for a send that repeated it. */
export async function findByCommandId(db: Db, roomId: string, commandId: string): Promise<{ message: ChatMessage; created: false }> {
  const { rows } = await db.query<MessageRow>(`SELECT ${COLUMNS} FROM chat_messages WHERE room_id = $1 AND command_id = $2`, [
    roomId,
    commandId,
  ]);
  const first = rows[0];
  // Only if the first copy was deleted since (by its author or retention).
  if (!first) throw new AppError('conflict', 'this message was sent before and has since been deleted');
  const [message = messageFromRow(first)] = await withReactions(db, [messageFromRow(first)]);
  return { message, created: false };
}

/** The message, row-locked for the rest of the transaction, or null. */
export async function lockMessage(db: Db, roomId: string, id: string): Promise<ChatMessage | null> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM chat_messages WHERE room_id = $1 AND id = $2 FOR UPDATE`,
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
    `UPDATE chat_messages SET pinned = $3 WHERE room_id = $1 AND id = $2 RETURNING ${COLUMNS}`,
    [roomId, id, pinned],
  );
  return rows[0] ? ((await withReactions(db, [messageFromRow(rows[0])]))[0] ?? null) : null;
}

/** Up to `limit` messages older than `before` (or the newest), newest first. */
export async function history(db: Db, roomId: string, before: string | undefined, limit: number): Promise<ChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM chat_messages
     WHERE room_id = $1 AND ($2::bigint IS NULL OR id < $2::bigint)
     ORDER BY id DESC LIMIT $3`,
    [roomId, before ?? null, limit],
  );
  return withReactions(db, rows.map(messageFromRow));
}

export async function pinnedMessages(db: Db, roomId: string, before: string | undefined, limit: number): Promise<ChatMessage[]> {
  const { rows } = await db.query<MessageRow>(
    `SELECT ${COLUMNS} FROM chat_messages
     WHERE room_id = $1 AND pinned AND ($2::bigint IS NULL OR id < $2::bigint)
     ORDER BY id DESC LIMIT $3`,
    [roomId, before ?? null, limit],
  );
  return withReactions(db, rows.map(messageFromRow));
}
