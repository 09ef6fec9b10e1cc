import type { Migration } from './types.js';

/**
 * Subtitle files uploaded to a room (media/subtitles/subtitle-files.ts): a playlist item's track
 * names one by id. Kept as text as uploaded (UTF-8; UTF-16 was converted on the way in), at most
 * a couple of MiB each and a bounded count per room (contracts/room/subtitles.ts). They hang off
 * the room, not an item: one file can serve several items, and an edit that drops a track does
 * not lose the upload. Deleting the room deletes them.
 */
export const migration0014: Migration = {
  id: '0014_subtitle_files',
  up: `
    CREATE TABLE subtitle_files (
      id uuid PRIMARY KEY,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      name text NOT NULL,
      format text NOT NULL CHECK (format IN ('vtt', 'srt', 'ass', 'ssa')),
      body text NOT NULL,
      size integer NOT NULL CHECK (size >= 0),
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX subtitle_files_room ON subtitle_files (room_id);
  `,
};
