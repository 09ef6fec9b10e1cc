import type { Migration } from './types.js';

/**
 * Reactions on chat messages (actors/room/chat/reaction-store.ts): one row per member, message
 * and reaction, so giving a reaction twice is one row and the counts are exact. They go with
 * their message (deleted by its author, a moderator or retention). The names are not checked
 * here: the set is the contract's (contracts/room/reactions.ts) and may grow without a migration.
 */
export const migration0016: Migration = {
  id: '0016_chat_reactions',
  up: `
    CREATE TABLE chat_reactions (
      message_id bigint NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
      reaction text NOT NULL,
      user_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (message_id, reaction, user_id)
    );
  `,
};
