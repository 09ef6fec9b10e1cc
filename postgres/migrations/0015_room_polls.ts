import type { Migration } from './types.js';

/**
 * Polls of a room (actors/room/polls/, docs/2026-11-26-votes-and-polls.md): the open one and a
 * bounded number of closed ones, each with one vote per member. Times are ms since the epoch, as
 * the room actor's clock gives them (a poll's timer runs on it). Deleting the room deletes them.
 * Also the up-votes of the voting queue mode (actors/room/playback/queue-votes.ts).
 */
export const migration0015: Migration = {
  id: '0015_room_polls',
  up: `
    CREATE TABLE room_polls (
      id bigserial PRIMARY KEY,
      room_id text NOT NULL REFERENCES rooms (id) ON DELETE CASCADE,
      question text NOT NULL,
      options jsonb NOT NULL,
      created_by text NOT NULL,
      created_at bigint NOT NULL,
      closes_at bigint,
      closed_at bigint
    );
    CREATE INDEX room_polls_room ON room_polls (room_id, id DESC);
    CREATE TABLE room_poll_votes (
      poll_id bigint NOT NULL REFERENCES room_polls (id) ON DELETE CASCADE,
      user_id text NOT NULL,
      choice smallint NOT NULL CHECK (choice >= 0),
      PRIMARY KEY (poll_id, user_id)
    );
    -- Up-votes on playlist items for the voting queue mode; an item removed takes its votes.
    CREATE TABLE room_queue_votes (
      room_id text NOT NULL,
      media_id text NOT NULL,
      user_id text NOT NULL,
      PRIMARY KEY (room_id, media_id, user_id),
      FOREIGN KEY (room_id, media_id) REFERENCES room_playlist (room_id, media_id) ON DELETE CASCADE
    );
  `,
};
