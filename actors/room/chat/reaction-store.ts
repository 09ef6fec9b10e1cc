/**
 * Reaction rows of chat messages (migration 0016). A message's reactions are read with it, in
 * one query per page of messages, grouped in the order of the reaction set.
 */
import type pg from 'pg';
import { REACTIONS, type ReactionName } from '../../../contracts/room/reactions.js';
import type { ChatMessage, ChatReaction } from '../../../contracts/room/model.js';

type Db = Pick<pg.PoolClient, 'query'>;

interface ReactionRow {
  message_id: string;
  reaction: string;
  user_ids: string[];
}

const ORDER = new Map<string, number>(REACTIONS.map((name, index) => [name, index]));

function grouped(rows: ReactionRow[]): Map<string, ChatReaction[]> {
  const byMessage = new Map<string, ChatReaction[]>();
  // A name dropped from the set since it was stored is not shown.
  for (const row of rows.filter((r) => ORDER.has(r.reaction))) {
    const list = byMessage.get(row.message_id) ?? [];
    list.push({ reaction: row.reaction as ReactionName, userIds: row.user_ids });
    byMessage.set(row.message_id, list);
  }
  for (const list of byMessage.values()) list.sort((a, b) => (ORDER.get(a.reaction) ?? 0) - (ORDER.get(b.reaction) ?? 0));
  return byMessage;
}

/** The messages with their reactions filled in. */
export async function withReactions(db: Db, messages: ChatMessage[]): Promise<ChatMessage[]> {
  if (messages.length === 0) return messages;
  const { rows } = await db.query<ReactionRow>(
    `SELECT message_id::text, reaction, array_agg(user_id ORDER BY created_at, user_id) AS user_ids
     FROM chat_reactions WHERE message_id = ANY($1::bigint[])
     GROUP BY message_id, reaction`,
    [messages.map((message) => message.id)],
  );
  const byMessage = grouped(rows);
  return messages.map((message) => ({ ...message, reactions: byMessage.get(message.id) ?? [] }));
}

export async function reactionsOf(db: Db, messageId: string): Promise<ChatReaction[]> {
  const { rows } = await db.query<ReactionRow>(
    `SELECT message_id::text, reaction, array_agg(user_id ORDER BY created_at, user_id) AS user_ids
     FROM chat_reactions WHERE message_id = $1 GROUP BY message_id, reaction`,
    [messageId],
  );
  return grouped(rows).get(messageId) ?? [];
}

/** True when the row is new (the member had not reacted so yet). */
export async function addReaction(db: Db, messageId: string, reaction: ReactionName, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('INSERT INTO chat_reactions (message_id, reaction, user_id) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
    messageId,
    reaction,
    userId,
  ]);
  return (rowCount ?? 0) > 0;
}

/** True when a row was there to remove. */
export async function removeReaction(db: Db, messageId: string, reaction: ReactionName, userId: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM chat_reactions WHERE message_id = $1 AND reaction = $2 AND user_id = $3', [messageId, reaction, userId]);
  return (rowCount ?? 0) > 0;
}
