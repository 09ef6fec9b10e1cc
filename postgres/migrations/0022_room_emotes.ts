import type { Migration } from './types.js';

/**
 * Custom room emotes (emotes/room-emotes.ts): one row per room and name, the picture as
 * served (re-encoded WebP, a few KiB) with the hash its immutable URL names. PostgreSQL, as the
 * avatars: every replica serves every emote and only the database is shared. Deleting the room
 * deletes them.
 */
export const migration0022: Migration = {
  id: '0022_room_emotes',
  up: `
    CREATE TABLE room_emotes (
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      name text NOT NULL,
      hash text NOT NULL,
      image bytea NOT NULL,
      width integer NOT NULL,
      height integer NOT NULL,
      animated boolean NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room_id, name)
    );
  `,
};
