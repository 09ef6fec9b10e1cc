import type { Migration } from './types.js';

/**
 * Connected media libraries and drives (docs/2026-11-26-media-libraries.md): a WebDAV share, an
 * Alist site, a Jellyfin or Emby server that members browse in the add-media dialog. A library
 * belongs to a user (usable by them in any room where they may add media) or to a room (usable
 * by its members who may add media), never both. The password or token is sealed with
 * `credential_encryption_key`, associated data "library:<id>", so it cannot be moved to
 * another row. Deleting the owner deletes its libraries; items added from one then answer
 * `not_found` when played.
 */
export const migration0013: Migration = {
  id: '0013_media_libraries',
  up: `
    CREATE TABLE media_libraries (
      id text PRIMARY KEY,
      -- The connector (media/libraries/registry.ts): webdav, alist, jellyfin, emby.
      kind text NOT NULL,
      name text NOT NULL,
      url text NOT NULL,
      username text NOT NULL DEFAULT '',
      -- SecretBox v1 seal of the password or token ('' sealed too), associated data "library:<id>".
      secret_sealed text NOT NULL,
      owner_user_id uuid REFERENCES users (id) ON DELETE CASCADE,
      owner_room_id text REFERENCES rooms (id) ON DELETE CASCADE,
      created_by text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      CHECK ((owner_user_id IS NULL) <> (owner_room_id IS NULL))
    );
    CREATE INDEX media_libraries_owner_user ON media_libraries (owner_user_id) WHERE owner_user_id IS NOT NULL;
    CREATE INDEX media_libraries_owner_room ON media_libraries (owner_room_id) WHERE owner_room_id IS NOT NULL;
  `,
};
