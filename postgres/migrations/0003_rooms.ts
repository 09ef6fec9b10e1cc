import type { Migration } from './types.js';

/**
 * Durable state of the room actor (`actors/room/`): the room, its members (bans included),
 * the playlist, the lazily persisted playback state, and chat. Every write of the first four
 * goes through the actor's fencing token (`actor_fences`); chat retention deletes without it,
 * because it only removes rows the actor never rewrites. Everything hangs off `rooms` with
 * ON DELETE CASCADE, so deleting a room is one statement.
 */
export const migration0003: Migration = {
  id: '0003_rooms',
  up: `
    CREATE TABLE rooms (
      id text PRIMARY KEY,
      name text NOT NULL,
      owner_id text NOT NULL,
      -- scrypt$N$r$p$salt$key (base64url), or NULL for a room without a password.
      password_hash text,
      visibility text NOT NULL CHECK (visibility IN ('public', 'hidden')),
      status text NOT NULL CHECK (status IN ('pending_review', 'active', 'rejected')),
      -- Per-room options: join approval, permission overrides, ready-wait (see actors/room/model.ts).
      settings jsonb NOT NULL DEFAULT '{}'::jsonb,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    );
    -- Counting a user's rooms for server.maxRoomsPerUser.
    CREATE INDEX rooms_owner_idx ON rooms (owner_id);
    -- A public room directory lists active public rooms, newest first.
    CREATE INDEX rooms_public_idx ON rooms (created_at DESC) WHERE visibility = 'public' AND status = 'active';

    CREATE TABLE room_members (
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      user_id text NOT NULL,
      name text NOT NULL,
      role text NOT NULL CHECK (role IN ('admin', 'member', 'guest')),
      -- A ban is a row too, so it holds for users who were never members.
      status text NOT NULL CHECK (status IN ('active', 'pending', 'banned')),
      -- Joined as an unauthenticated guest: can never hold a role above guest.
      guest boolean NOT NULL DEFAULT false,
      joined_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room_id, user_id)
    );
    -- "Rooms I am in".
    CREATE INDEX room_members_user_idx ON room_members (user_id);

    CREATE TABLE room_playlist (
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      media_id text NOT NULL,
      -- Ordering key with gaps, so an insert or move rewrites one row; renumbered when a gap closes.
      sort_key bigint NOT NULL,
      title text NOT NULL,
      url text NOT NULL,
      provider text NOT NULL,
      headers jsonb NOT NULL DEFAULT '{}'::jsonb,
      subtitles jsonb NOT NULL DEFAULT '[]'::jsonb,
      live boolean NOT NULL DEFAULT false,
      proxy boolean NOT NULL DEFAULT false,
      added_by text NOT NULL,
      added_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (room_id, media_id)
    );
    CREATE INDEX room_playlist_order_idx ON room_playlist (room_id, sort_key);

    -- Written lazily (every few seconds and on deactivation), not on every command.
    CREATE TABLE room_playback (
      room_id text PRIMARY KEY REFERENCES rooms (id) ON DELETE CASCADE,
      media_id text,
      playing boolean NOT NULL DEFAULT false,
      -- Seconds into the media at updated_at_ms.
      position double precision NOT NULL DEFAULT 0,
      rate double precision NOT NULL DEFAULT 1,
      updated_at_ms bigint NOT NULL,
      version bigint NOT NULL DEFAULT 0,
      -- Versions up to this one may have been handed out by an activation; the next activation
      -- starts above it, so a version never repeats across a failover.
      version_reserved bigint NOT NULL DEFAULT 0
    );

    CREATE TABLE chat_messages (
      id bigserial PRIMARY KEY,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      user_id text NOT NULL,
      name text NOT NULL,
      text text NOT NULL,
      pinned boolean NOT NULL DEFAULT false,
      -- Idempotency key of the send (runtime command id or client message id); NULLs never clash.
      command_id text,
      created_at timestamptz NOT NULL DEFAULT now(),
      CONSTRAINT chat_messages_room_command_key UNIQUE (room_id, command_id)
    );
    -- History pages, newest first.
    CREATE INDEX chat_messages_room_id_idx ON chat_messages (room_id, id DESC);
    -- Retention: the count cap over unpinned messages, the pin cap, and the age cut.
    CREATE INDEX chat_messages_unpinned_idx ON chat_messages (room_id, id DESC) WHERE NOT pinned;
    CREATE INDEX chat_messages_pinned_idx ON chat_messages (room_id, id DESC) WHERE pinned;
    CREATE INDEX chat_messages_created_idx ON chat_messages (created_at);
  `,
};
