import type pg from 'pg';
import { visibleToUser } from '../../actors/index.js';
import { AppError } from '../../errors/index.js';

/** A user's starred rooms (postgres/migrations/0017_profiles.ts); the home page lists them first. */
export const FAVOURITE_ROOMS_MAX = 100;

export class FavouriteRooms {
  constructor(private readonly pool: pg.Pool) {}

  /**
   * Stars a room the user may see now; a room they may not see is `not_found`, as if it did
   * not exist (a hidden room's id must not be confirmed). Starring twice is one star.
   */
  async add(userId: string, roomId: string): Promise<void> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One user's stars at a time, so two racing adds cannot pass the cap together.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`favourites:${userId}`]);
      const visible = await client.query(`SELECT 1 FROM rooms r WHERE r.id = $2 AND ${visibleToUser('$1')}`, [userId, roomId]);
      if ((visible.rowCount ?? 0) === 0) throw new AppError('not_found', `room ${roomId} not found`);
      const { rows } = await client.query<{ count: string; starred: boolean }>(
        'SELECT count(*) AS count, bool_or(room_id = $2) AS starred FROM favourite_rooms WHERE user_id = $1',
        [userId, roomId],
      );
      const count = Number(rows[0]?.count ?? 0);
      if (!rows[0]?.starred && count >= FAVOURITE_ROOMS_MAX) {
        throw new AppError('limit_exceeded', `you already have ${count} favourite rooms, the most there may be; remove one first`);
      }
      await client.query('INSERT INTO favourite_rooms (user_id, room_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [userId, roomId]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Unstars; unstarring a room that was not starred (or no longer exists) is done already. */
  async remove(userId: string, roomId: string): Promise<void> {
    await this.pool.query('DELETE FROM favourite_rooms WHERE user_id = $1 AND room_id = $2', [userId, roomId]);
  }
}
