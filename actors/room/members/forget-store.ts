/**
 * The membership rows a room keeps of a closed account, changed by `member.forget`
 * (forget-member.ts) in its fenced transaction: the ban and the libraries it connected. The
 * other parts change theirs in the same transaction (polls/poll-store.ts, playback/queue-votes.ts).
 */
import type pg from 'pg';
import { FORMER_MEMBER } from '../../../contracts/room/former-member.js';

type Db = Pick<pg.PoolClient, 'query'>;

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
