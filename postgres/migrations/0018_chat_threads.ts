import type { Migration } from './types.js';

/**
 * Replies, edits and mentions on chat messages (docs/2026-11-26-chat-replies-edits-mentions.md).
 *
 * `reply_to` is the id of the message answered, without a foreign key: the original may be
 * deleted later (by its author, a moderator or retention) and the reply must still say that it
 * answered something, now "a deleted message". Quotes are read by joining on it, so an edit of
 * the original shows in its quotes too.
 *
 * `edited_at` is set by an author's edit (within ROOM_LIMITS.chatEditWindowMs); `mentions` holds
 * the user ids the text mentions, resolved against the room's members when sent or edited.
 */
export const migration0018: Migration = {
  id: '0018_chat_threads',
  up: `
    ALTER TABLE chat_messages
      ADD COLUMN reply_to bigint,
      ADD COLUMN edited_at timestamptz,
      ADD COLUMN mentions text[] NOT NULL DEFAULT '{}';
  `,
};
