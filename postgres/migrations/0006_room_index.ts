import type { Migration } from './types.js';

/**
 * Indexes for the room listings of the HTTP API (docs/2026-11-23-rooms-api.md): the public
 * directory (active public rooms, newest first, keyset-paged on (created_at, id), optionally
 * searched by word prefixes of the name), the admin listing of every room, and the active
 * member count each entry shows. Core PostgreSQL only (no extension): the name search is a
 * `simple` text-search vector, which matches word prefixes case-insensitively in any script.
 */
export const migration0006: Migration = {
  id: '0006_room_index',
  up: `
    -- The directory page: WHERE public AND active ORDER BY created_at DESC, id DESC, from a cursor.
    -- Ids compare bytewise (COLLATE "C"), so the order does not depend on the database's locale.
    CREATE INDEX rooms_directory_idx ON rooms (created_at DESC, id COLLATE "C" DESC) WHERE visibility = 'public' AND status = 'active';
    -- Name search within the directory (to_tsvector('simple', name) @@ 'word:*' & ...).
    CREATE INDEX rooms_directory_name_idx ON rooms USING gin (to_tsvector('simple', name)) WHERE visibility = 'public' AND status = 'active';
    -- The admin listing of every room, and the same search over it.
    CREATE INDEX rooms_created_idx ON rooms (created_at DESC, id COLLATE "C" DESC);
    CREATE INDEX rooms_name_idx ON rooms USING gin (to_tsvector('simple', name));
    -- Member counts of listed rooms (active members only).
    CREATE INDEX room_members_active_idx ON room_members (room_id) WHERE status = 'active';
    -- The directory index of 0003 (created_at alone) is covered by rooms_directory_idx.
    DROP INDEX IF EXISTS rooms_public_idx;
  `,
};
