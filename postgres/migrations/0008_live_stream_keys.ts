import type { Migration } from './types.js';

/**
 * RTMP stream keys of live playlist items (media/live/stream-keys.ts). One key per item; the
 * key is sealed with `credential_encryption_key` (shown again to whoever may publish) and
 * found at publish time by its SHA-256, which is unique. The row hangs off the playlist item,
 * so removing the item, clearing the list or deleting the room revokes the key with it.
 */
export const migration0008: Migration = {
  id: '0008_live_stream_keys',
  up: `
    CREATE TABLE live_stream_keys (
      room_id text NOT NULL,
      media_id text NOT NULL,
      -- hex SHA-256 of the key: what an RTMP publish is looked up by.
      key_hash text NOT NULL UNIQUE,
      -- SecretBox v1 seal of the key, associated data "stream-key:<room_id>:<media_id>".
      key_sealed text NOT NULL,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room_id, media_id),
      FOREIGN KEY (room_id, media_id) REFERENCES room_playlist (room_id, media_id) ON DELETE CASCADE
    );
  `,
};
