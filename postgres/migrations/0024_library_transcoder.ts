import type { Migration } from './types.js';

/**
 * Who converts a library's items that browsers cannot play as they are (issue 40, "Jellyfin and
 * Emby can do it themselves"): 'svc' (this service's shared transcode) or 'server' (a Jellyfin
 * or Emby server's own HLS transcode). Defaulted, so a previous release that inserts rows
 * without it keeps working during a rolling upgrade, and every library connected before it
 * stays on svc's transcode.
 */
export const migration0024: Migration = {
  id: '0024_library_transcoder',
  up: `
    ALTER TABLE media_libraries ADD COLUMN transcoder text NOT NULL DEFAULT 'svc' CHECK (transcoder IN ('svc', 'server'));
  `,
};
