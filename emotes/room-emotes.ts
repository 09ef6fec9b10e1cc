/**
 * Custom emotes of rooms, in `room_emotes` (migration 0022). Who may change them is the room's
 * decision (the route asks it first); this module stores within the per-room cap, and serves a
 * picture only under the room and hash it was stored with.
 */
import type pg from 'pg';
import { EMOTE_LIMITS } from '../contracts/room/emotes.js';
import { AppError } from '../errors/index.js';
import type { EmoteImage } from './emote-image.js';

export interface RoomEmote {
  name: string;
  /** The immutable URL of this version: a new upload under the name gets another. */
  url: string;
  width: number;
  height: number;
  animated: boolean;
}

export function emoteUrl(roomId: string, hash: string): string {
  return `/media/emotes/${encodeURIComponent(roomId)}/${hash}.webp`;
}

export class RoomEmotes {
  constructor(private readonly pool: pg.Pool) {}

  async list(roomId: string): Promise<RoomEmote[]> {
    const { rows } = await this.pool.query<{ name: string; hash: string; width: number; height: number; animated: boolean }>(
      'SELECT name, hash, width, height, animated FROM room_emotes WHERE room_id = $1 ORDER BY name',
      [roomId],
    );
    return rows.map((row) => ({ name: row.name, url: emoteUrl(roomId, row.hash), width: row.width, height: row.height, animated: row.animated }));
  }

  /**
   * Stores `image` under `name`, replacing the room's emote of that name; a new name past the
   * cap is refused (`limit_exceeded`) and nothing is written.
   */
  async put(roomId: string, name: string, image: EmoteImage, createdBy: string): Promise<RoomEmote> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two uploads at once must not both pass the count: one waits for the other, per room.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('room_emotes:' || $1))", [roomId]);
      const { rows } = await client.query<{ count: string; has: boolean }>(
        'SELECT count(*) AS count, bool_or(name = $2) AS has FROM room_emotes WHERE room_id = $1',
        [roomId, name],
      );
      if (!rows[0]?.has && Number(rows[0]?.count ?? 0) >= EMOTE_LIMITS.perRoom) {
        throw new AppError('limit_exceeded', `this room already has ${EMOTE_LIMITS.perRoom} emotes, the most it may keep; remove one first`);
      }
      await client.query(
        `INSERT INTO room_emotes (room_id, name, hash, image, width, height, animated, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
         ON CONFLICT (room_id, name) DO UPDATE SET hash = EXCLUDED.hash, image = EXCLUDED.image, width = EXCLUDED.width,
           height = EXCLUDED.height, animated = EXCLUDED.animated, created_by = EXCLUDED.created_by, created_at = now()`,
        [roomId, name, image.hash, image.webp, image.width, image.height, image.animated, createdBy],
      );
      await client.query('COMMIT');
      return { name, url: emoteUrl(roomId, image.hash), width: image.width, height: image.height, animated: image.animated };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Whether the room had an emote of that name. */
  async remove(roomId: string, name: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM room_emotes WHERE room_id = $1 AND name = $2', [roomId, name]);
    return (rowCount ?? 0) > 0;
  }

  async image(roomId: string, hash: string): Promise<Buffer | undefined> {
    const { rows } = await this.pool.query<{ image: Buffer }>('SELECT image FROM room_emotes WHERE room_id = $1 AND hash = $2 LIMIT 1', [roomId, hash]);
    return rows[0]?.image;
  }
}
