/**
 * Subtitle files uploaded to rooms, in `subtitle_files` (migration 0014). Who may upload is the
 * room's decision (the route asks it first); this module only stores, within the per-room count
 * cap, and reads a file back only for the room it was uploaded to.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { SUBTITLE_LIMITS, type SubtitleFormatName } from '../../contracts/room/subtitles.js';
import { AppError } from '../../errors/index.js';

export interface SubtitleFile {
  id: string;
  roomId: string;
  name: string;
  format: SubtitleFormatName;
  text: string;
  size: number;
  createdBy: string;
  createdAt: number;
}

export type NewSubtitleFile = Pick<SubtitleFile, 'roomId' | 'name' | 'format' | 'text' | 'createdBy'>;

export class SubtitleFiles {
  constructor(
    private readonly pool: pg.Pool,
    private readonly maxPerRoom: number = SUBTITLE_LIMITS.filesPerRoom,
  ) {}

  /** Stores the file, or refuses (`limit_exceeded`) when the room already holds `maxPerRoom`; nothing is written then. */
  async add(file: NewSubtitleFile): Promise<SubtitleFile> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Two uploads at once must not both pass the count: one waits for the other, per room.
      await client.query("SELECT pg_advisory_xact_lock(hashtext('subtitle_files:' || $1))", [file.roomId]);
      const { rows } = await client.query<{ count: string }>('SELECT count(*) AS count FROM subtitle_files WHERE room_id = $1', [file.roomId]);
      if (Number(rows[0]?.count ?? 0) >= this.maxPerRoom) {
        throw new AppError('limit_exceeded', `this room already has ${this.maxPerRoom} subtitle files, the most it may keep`);
      }
      const id = randomUUID();
      const size = Buffer.byteLength(file.text, 'utf8');
      const inserted = await client.query<{ created_at: Date }>(
        `INSERT INTO subtitle_files (id, room_id, name, format, body, size, created_by) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at`,
        [id, file.roomId, file.name, file.format, file.text, size, file.createdBy],
      );
      await client.query('COMMIT');
      return { ...file, id, size, createdAt: inserted.rows[0]!.created_at.getTime() };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** The formats of those of `ids` that belong to `roomId`. */
  async formats(roomId: string, ids: string[]): Promise<Map<string, SubtitleFormatName>> {
    if (ids.length === 0) return new Map();
    const { rows } = await this.pool.query<{ id: string; format: SubtitleFormatName }>('SELECT id, format FROM subtitle_files WHERE room_id = $1 AND id = ANY($2::uuid[])', [roomId, ids]);
    return new Map(rows.map((row) => [row.id, row.format]));
  }

  /** The file if it belongs to `roomId`; a file of another room is as absent as a missing one. */
  async get(roomId: string, id: string): Promise<SubtitleFile | undefined> {
    const { rows } = await this.pool.query<{ id: string; room_id: string; name: string; format: SubtitleFormatName; body: string; size: number; created_by: string; created_at: Date }>(
      'SELECT id, room_id, name, format, body, size, created_by, created_at FROM subtitle_files WHERE room_id = $1 AND id = $2',
      [roomId, id],
    );
    const row = rows[0];
    return row && { id: row.id, roomId: row.room_id, name: row.name, format: row.format, text: row.body, size: row.size, createdBy: row.created_by, createdAt: row.created_at.getTime() };
  }
}
