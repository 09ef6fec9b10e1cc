import type { Migration } from './types.js';

/**
 * Whether a playlist item's source can seek (docs/2026-11-26-seekable-sources.md): `yes` (its
 * upstream answers range requests, or it is HLS), `no` (it answers every read from the start:
 * players can only play it on from where they are), `unknown` (the check failed or timed out,
 * and items stored before it), `checking` (a probe is running; an activation that finds one
 * left by a crash probes again).
 */
export const migration0012: Migration = {
  id: '0012_media_seekable',
  up: `
    ALTER TABLE room_playlist ADD COLUMN seekable text NOT NULL DEFAULT 'unknown'
      CHECK (seekable IN ('yes', 'no', 'unknown', 'checking'));
  `,
};
