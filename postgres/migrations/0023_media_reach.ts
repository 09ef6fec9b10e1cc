import type { Migration } from './types.js';

/**
 * How each playlist item reaches browsers (contracts/room/reach.ts), probed when it is added:
 * null until known. A JSON value, not columns: it is written once per probe and read whole
 * with the item; nothing queries into it.
 */
export const migration0023: Migration = {
  id: '0023_media_reach',
  up: `
    ALTER TABLE room_playlist ADD COLUMN reach jsonb;
  `,
};
