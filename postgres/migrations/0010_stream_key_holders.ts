import type { Migration } from './types.js';

/**
 * Stream keys per publisher (media/live/stream-keys.ts): one key per live item and member who
 * may publish to it, so a key is only as good as its holder's right to publish. `created_by`
 * becomes the key's holder: a key made before this change stays its creator's, and other
 * publishers get their own the next time they read it.
 */
export const migration0010: Migration = {
  id: '0010_stream_key_holders',
  up: `
    ALTER TABLE live_stream_keys DROP CONSTRAINT live_stream_keys_pkey;
    ALTER TABLE live_stream_keys ADD PRIMARY KEY (room_id, media_id, created_by);
  `,
};
