import type { Migration } from './types.js';

/**
 * Playlist folders (docs/2026-11-26-playlist-folders.md). A folder is a row with a sort key in
 * the same key space as the room's items: the playlist in play order is folders and items
 * merged by sort key, each folder followed by its own items. A folder goes with its room
 * (ON DELETE CASCADE); deleting a folder row sets its items' folder_id to NULL (ON DELETE SET
 * NULL), which is "remove the folder, keep its items" — they keep their place in the order.
 * "Remove with its items" deletes the items first, in the same transaction.
 *
 * room_playback.folder_play: a folder being played (playlist.folder.play), as
 * {folderId, order, current, remaining}; NULL when none. A new activation goes on with it.
 */
export const migration0021: Migration = {
  id: '0021_playlist_folders',
  up: `
    CREATE TABLE room_playlist_folders (
      folder_id text PRIMARY KEY,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      sort_key bigint NOT NULL,
      title text NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX room_playlist_folders_room_idx ON room_playlist_folders (room_id, sort_key);
    ALTER TABLE room_playback ADD COLUMN folder_play jsonb;
    ALTER TABLE room_playlist ADD COLUMN folder_id text REFERENCES room_playlist_folders (folder_id) ON DELETE SET NULL;
  `,
};
