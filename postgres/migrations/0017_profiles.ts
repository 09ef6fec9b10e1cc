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
 *
 * Favourite rooms: a user's starred rooms, gone with either the user or the room. Listing them
 * shows only those the user may still see (gateways/rooms/favourite-rooms.ts).
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
    CREATE TABLE favourite_rooms (
      user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      created_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (user_id, room_id)
    );
    CREATE INDEX favourite_rooms_room ON favourite_rooms (room_id);
    CREATE TABLE retired_usernames (
      username_key text PRIMARY KEY,
      retired_at timestamptz NOT NULL DEFAULT now()
    );
  `,
};
