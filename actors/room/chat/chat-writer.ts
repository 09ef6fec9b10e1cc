/**
 * The chat sends of every room on one host, group-committed (see FencedBatchWriter): chat is
 * the hottest durable write, and the reply to a send still waits for the commit that holds it.
 */
import type pg from 'pg';
import { FencedBatchWriter } from '../../runtime/fenced-batch-writer.js';
import type { Fence } from '../../runtime/fencing.js';
import { HostShared } from '../core.js';
import { findByCommandId, messageFromRow, type MessageRow, type NewMessage } from './chat-store.js';
import type { ChatMessage } from '../../../contracts/room/model.js';

export interface ChatSend {
  fence: Fence;
  roomId: string;
  message: NewMessage;
}

export interface StoredMessage {
  message: ChatMessage;
  created: boolean;
}

export function chatWriter(pool: pg.Pool): FencedBatchWriter<ChatSend, StoredMessage> {
  return new FencedBatchWriter<ChatSend, StoredMessage>(pool, {
    table: 'chat_messages',
    columns: [
      ['room_id', 'text'],
      ['user_id', 'text'],
      ['name', 'text'],
      ['text', 'text'],
      ['command_id', 'text'],
      ['reply_to', 'bigint'],
      // jsonb, not text[]: unnest would flatten an array of arrays.
      ['mentions', 'jsonb'],
      ['created_ms', 'double precision'],
    ],
    values: ({ roomId, message }) => [roomId, message.userId, message.name, message.text, message.commandId, message.replyTo, JSON.stringify(message.mentions), message.createdAt],
    // A send whose idempotency key is already stored inserts nothing: its row has no id.
    statement: `inserted AS (
      INSERT INTO chat_messages (room_id, user_id, name, text, command_id, reply_to, mentions, created_at)
      SELECT i.room_id, i.user_id, i.name, i.text, i.command_id, i.reply_to, ARRAY(SELECT jsonb_array_elements_text(i.mentions)), to_timestamp(i.created_ms / 1000)
      FROM input i JOIN claim USING (actor_type, actor_id, fence)
      ORDER BY i.ord
      ON CONFLICT ON CONSTRAINT chat_messages_room_command_key DO NOTHING
      RETURNING *
    )
    SELECT c.actor_id IS NOT NULL AS claimed, m.*, r.user_id AS reply_user_id, r.name AS reply_name, r.text AS reply_text
    FROM input i
    LEFT JOIN claim c USING (actor_type, actor_id, fence)
    LEFT JOIN inserted m ON m.room_id = i.room_id AND m.command_id = i.command_id
    LEFT JOIN chat_messages r ON r.room_id = m.room_id AND r.id = m.reply_to
    ORDER BY i.ord`,
    outcome: (send, row, db) =>
      row.id !== null ? { message: messageFromRow(row as unknown as MessageRow), created: true } : findByCommandId(db, send.roomId, send.message.commandId),
  });
}

/** One chat writer per host, shared by its rooms (declared by the chat part). */
export const CHAT_WRITER = new HostShared('chat writer', (deps) => chatWriter(deps.pool));
