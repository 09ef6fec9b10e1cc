/**
 * The rows of a room's polls (migration 0015). The actor holds its polls in memory (they are
 * few: the open one and ROOM_LIMITS.pollsKept closed ones) and writes each change, fenced,
 * before it applies it.
 */
import type pg from 'pg';
import { FORMER_MEMBER, FORMER_MEMBER_ID_PREFIX } from '../../../contracts/room/former-member.js';
import type { StoredPoll } from './polls.js';

type Db = Pick<pg.PoolClient, 'query'>;

interface PollRow {
  id: string;
  question: string;
  options: string[];
  created_by: string;
  created_at: string;
  closes_at: string | null;
  closed_at: string | null;
}

/** The room's newest `limit` polls with their votes, newest first. */
export async function loadPolls(db: Db, roomId: string, limit: number): Promise<StoredPoll[]> {
  const { rows } = await db.query<PollRow>(
    `SELECT id, question, options, created_by, created_at, closes_at, closed_at FROM room_polls WHERE room_id = $1 ORDER BY id DESC LIMIT $2`,
    [roomId, limit],
  );
  if (rows.length === 0) return [];
  const votes = await db.query<{ poll_id: string; user_id: string; choice: number }>(
    'SELECT poll_id, user_id, choice FROM room_poll_votes WHERE poll_id = ANY($1::bigint[])',
    [rows.map((row) => row.id)],
  );
  return rows.map((row) => ({
    id: row.id,
    question: row.question,
    options: row.options,
    createdBy: row.created_by,
    createdAt: Number(row.created_at),
    closesAt: row.closes_at === null ? null : Number(row.closes_at),
    closedAt: row.closed_at === null ? null : Number(row.closed_at),
    votes: new Map(votes.rows.filter((vote) => vote.poll_id === row.id).map((vote) => [vote.user_id, vote.choice])),
  }));
}

export async function insertPoll(db: Db, roomId: string, poll: Omit<StoredPoll, 'id' | 'votes'>): Promise<string> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO room_polls (room_id, question, options, created_by, created_at, closes_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
    [roomId, poll.question, JSON.stringify(poll.options), poll.createdBy, poll.createdAt, poll.closesAt],
  );
  return (rows[0] as { id: string }).id;
}

export async function saveVote(db: Db, pollId: string, userId: string, choice: number): Promise<void> {
  await db.query(
    `INSERT INTO room_poll_votes (poll_id, user_id, choice) VALUES ($1, $2, $3) ON CONFLICT (poll_id, user_id) DO UPDATE SET choice = EXCLUDED.choice`,
    [pollId, userId, choice],
  );
}

/** Closes the poll and deletes the room's closed polls beyond the newest `keep`. */
export async function closePoll(db: Db, roomId: string, pollId: string, closedAt: number, keep: number): Promise<void> {
  await db.query('UPDATE room_polls SET closed_at = $3 WHERE room_id = $1 AND id = $2', [roomId, pollId, closedAt]);
  await db.query(
    `DELETE FROM room_polls WHERE room_id = $1 AND closed_at IS NOT NULL AND id NOT IN (
       SELECT id FROM room_polls WHERE room_id = $1 AND closed_at IS NOT NULL ORDER BY id DESC LIMIT $2)`,
    [roomId, keep],
  );
}

/** A closed account's votes in the room's polls (member.forget): they keep counting, each under a new id: the new ids by poll. */
export async function anonymisePollVotes(db: Db, roomId: string, userId: string): Promise<Array<{ pollId: string; voterId: string }>> {
  const { rows } = await db.query<{ poll_id: string; user_id: string }>(
    `UPDATE room_poll_votes v SET user_id = $3::text || gen_random_uuid()::text
       FROM room_polls p WHERE p.id = v.poll_id AND p.room_id = $1 AND v.user_id = $2
     RETURNING v.poll_id::text AS poll_id, v.user_id`,
    [roomId, userId, FORMER_MEMBER_ID_PREFIX],
  );
  return rows.map((row) => ({ pollId: row.poll_id, voterId: row.user_id }));
}

/** The polls the account opened, now by "Former member". */
export async function anonymisePollAuthor(db: Db, roomId: string, userId: string): Promise<number> {
  const { rowCount } = await db.query('UPDATE room_polls SET created_by = $3 WHERE room_id = $1 AND created_by = $2', [roomId, userId, FORMER_MEMBER.userId]);
  return rowCount ?? 0;
}
