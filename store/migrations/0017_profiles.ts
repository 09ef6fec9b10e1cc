import type { Migration } from './types.js';

/**
 * Profiles (docs/2026-11-26-profiles-and-accounts.md): a user's avatar, re-encoded on the server
 * at two square sizes. In PostgreSQL rather than under data_dir because every replica serves
 * every avatar and only the database is shared; each image is a few KiB, at most one per user.
 * `hash` (of both encodings) names the current version in the URL, so the bytes are cached
 * forever and a new upload is a new URL. Deleting the user deletes the avatar.
 *
 * A closed account's username is retired, never signed up for again (accounts/profiles/close-account.ts):
 * people who knew the name must not meet a stranger under it.
 */
export const migration0017: Migration = {
  id: '0017_profiles',
  up: `
    CREATE TABLE user_avatars (
      user_id uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
      hash text NOT NULL,
      large bytea NOT NULL,
      small bytea NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE retired_usernames (
      username_key text PRIMARY KEY,
      retired_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};
