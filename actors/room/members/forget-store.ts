/**
 * The rows a room keeps of a closed account, changed by `member.forget` (forget-member.ts) in
 * one fenced transaction. Votes keep counting under a new random id each (FORMER_MEMBER_ID_PREFIX):
 * the primary keys are per voter, so two former members' votes on one poll or item stay two.
 */
import type pg from 'pg';
import { FORMER_MEMBER, FORMER_MEMBER_ID_PREFIX } from '../../../contracts/room/former-member.js';

type Db = Pick<pg.PoolClient, 'query'>;

/** The account's votes in the room's polls, each under a new id: the new ids by poll. */
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

/** The account's up-votes, each under a new id: the new ids by item. */
export async function anonymiseQueueVotes(db: Db, roomId: string, userId: string): Promise<Array<{ mediaId: string; voterId: string }>> {
  const { rows } = await db.query<{ media_id: string; user_id: string }>(
    `UPDATE room_queue_votes SET user_id = $3::text || gen_random_uuid()::text WHERE room_id = $1 AND user_id = $2 RETURNING media_id, user_id`,
    [roomId, userId, FORMER_MEMBER_ID_PREFIX],
  );
  return rows.map((row) => ({ mediaId: row.media_id, voterId: row.user_id }));
}

/** The account's ban keeps its id (nobody will hold it again) and loses the name. */
export async function anonymiseBan(db: Db, roomId: string, userId: string): Promise<void> {
  await db.query(`UPDATE room_members SET name = $3 WHERE room_id = $1 AND user_id = $2 AND status = 'banned'`, [roomId, userId, FORMER_MEMBER.name]);
}

/**
 * The room's libraries the account connected: their secret is that person's credential, which
 * must not outlive the account. Removed; items added from them then answer `not_found` when played.
 */
export async function removeLibrariesConnectedBy(db: Db, roomId: string, userId: string): Promise<Array<{ id: string; name: string }>> {
  const { rows } = await db.query<{ id: string; name: string }>('DELETE FROM media_libraries WHERE owner_room_id = $1 AND created_by = $2 RETURNING id, name', [roomId, userId]);
  return rows;
}
