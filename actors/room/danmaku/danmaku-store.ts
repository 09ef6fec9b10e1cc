/** Danmaku rows (migration 0016): an item's comments, bounded per item. */
import type pg from 'pg';
import type { DanmakuComment } from '../../../contracts/room/model.js';

type Db = Pick<pg.PoolClient, 'query'>;

interface DanmakuRow {
  id: string;
  media_id: string;
  position: number;
  user_id: string;
  name: string;
  text: string;
  created_at: Date;
}

const COLUMNS = 'id, media_id, position, user_id, name, text, created_at';

function commentFromRow(row: DanmakuRow): DanmakuComment {
  return { id: row.id, mediaId: row.media_id, position: row.position, userId: row.user_id, name: row.name, text: row.text, createdAt: row.created_at.getTime() };
}

export interface NewComment {
  mediaId: string;
  position: number;
  userId: string;
  name: string;
  text: string;
}

/** Stores the comment, then drops the item's oldest beyond `keep`. */
export async function insertComment(db: Db, roomId: string, comment: NewComment, keep: number): Promise<DanmakuComment> {
  const { rows } = await db.query<DanmakuRow>(
    `INSERT INTO danmaku (room_id, media_id, position, user_id, name, text) VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
    [roomId, comment.mediaId, comment.position, comment.userId, comment.name, comment.text],
  );
  await db.query(
    `DELETE FROM danmaku WHERE room_id = $1 AND media_id = $2 AND id < (
       SELECT id FROM danmaku WHERE room_id = $1 AND media_id = $2 ORDER BY id DESC OFFSET $3::int - 1 LIMIT 1
     )`,
    [roomId, comment.mediaId, keep],
  );
  return commentFromRow(rows[0] as DanmakuRow);
}

/** The item's comments by position (then by when they were sent). */
export async function commentsOf(db: Db, roomId: string, mediaId: string, limit: number): Promise<DanmakuComment[]> {
  const { rows } = await db.query<DanmakuRow>(
    `SELECT ${COLUMNS} FROM (SELECT ${COLUMNS} FROM danmaku WHERE room_id = $1 AND media_id = $2 ORDER BY id DESC LIMIT $3) newest
     ORDER BY position, id`,
    [roomId, mediaId, limit],
  );
  return rows.map(commentFromRow);
}
