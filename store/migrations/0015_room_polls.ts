import type { Migration } from './types.js';

/**
 * Polls of a room (actors/room/polls/, docs/2026-11-26-votes-and-polls.md): the open one and a
 * bounded number of closed ones, each with one vote per member. Times are ms since the epoch, as
 * the room actor's clock gives them (a poll's timer runs on it). Deleting the room deletes them.
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
  `,
};
