import type { Migration } from './types.js';

/**
 * Reactions on chat messages (actors/room/chat/reaction-store.ts): one row per member, message
 * and reaction, so giving a reaction twice is one row and the counts are exact. They go with
 * their message (deleted by its author, a moderator or retention). The names are not checked
 * here: the set is the contract's (contracts/room/reactions.ts) and may grow without a migration.
 *
 * Danmaku (actors/room/danmaku/danmaku-store.ts): comments pinned to a position of a media item,
 * kept per item up to ROOM_LIMITS.danmakuPerItemMax (the oldest go first), read by item and
 * position for later viewers. Deleting the room deletes them.
 */
export const migration0016: Migration = {
  id: '0016_reactions_and_danmaku',
  up: `
    CREATE TABLE chat_reactions (
      message_id bigint NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
      reaction text NOT NULL,
      user_id text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (message_id, reaction, user_id)
    );
    CREATE TABLE danmaku (
      id bigserial PRIMARY KEY,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      media_id text NOT NULL,
      position double precision NOT NULL CHECK (position >= 0),
      user_id text NOT NULL,
      name text NOT NULL,
      text text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    -- An item's comments (the list, and the trim of the oldest beyond the bound).
    CREATE INDEX danmaku_item_idx ON danmaku (room_id, media_id, id DESC);
  `,
};
