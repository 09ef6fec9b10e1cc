/**
 * Connected libraries in `media_libraries` (migration 0013): who owns each (a user or a room),
 * where it is, and its password or token sealed with the secret box under "library:<id>", so a
 * sealed secret copied to another row does not open there. Only this module opens secrets, and
 * only to hand them to a connector; views never carry them. `transcoder` (migration 0024) says who
 * converts its items browsers cannot play as they are (contracts/http/libraries.ts).
 */
import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { SecretBox } from '../../crypto/index.js';
import { AppError } from '../../errors/index.js';
import type { LibraryTranscoder } from '../../contracts/http/libraries.js';
import { LIBRARY_LIMITS } from './access-check.js';
import type { LibraryAccess } from './connector.js';

export type LibraryOwner = { kind: 'user'; userId: string } | { kind: 'room'; roomId: string };

export interface LibraryRecord {
  id: string;
  kind: string;
  name: string;
  url: string;
  username: string;
  owner: LibraryOwner;
  transcoder: LibraryTranscoder;
  createdBy: string;
  createdAt: number;
}

/** What an edit may change: the name and who converts its items. */
export interface LibraryChanges {
  name?: string | undefined;
  transcoder?: LibraryTranscoder | undefined;
}

export interface NewLibrary extends LibraryAccess {
  kind: string;
  name: string;
  owner: LibraryOwner;
  transcoder: LibraryTranscoder;
  createdBy: string;
}

interface Row {
  id: string;
  kind: string;
  name: string;
  url: string;
  username: string;
  owner_user_id: string | null;
  owner_room_id: string | null;
  transcoder: LibraryTranscoder;
  created_by: string;
  created_at: Date;
}

const COLUMNS = 'id, kind, name, url, username, owner_user_id, owner_room_id, transcoder, created_by, created_at';

function recordOf(row: Row): LibraryRecord {
  const owner: LibraryOwner = row.owner_user_id !== null ? { kind: 'user', userId: row.owner_user_id } : { kind: 'room', roomId: row.owner_room_id! };
  return { id: row.id, kind: row.kind, name: row.name, url: row.url, username: row.username, owner, transcoder: row.transcoder, createdBy: row.created_by, createdAt: row.created_at.getTime() };
}

function context(id: string): string {
  return `library:${id}`;
}

function ownerColumns(owner: LibraryOwner): [string | null, string | null] {
  return owner.kind === 'user' ? [owner.userId, null] : [null, owner.roomId];
}

export class LibraryStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly box: SecretBox,
  ) {}

  /** A room's libraries and, for a user, their own: what they may use in that room. Oldest first. */
  async usableIn(roomId: string, userId: string | null): Promise<LibraryRecord[]> {
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM media_libraries WHERE owner_room_id = $1 OR ($2::uuid IS NOT NULL AND owner_user_id = $2::uuid) ORDER BY created_at, id`,
      [roomId, userId],
    );
    return rows.map(recordOf);
  }

  async ownedBy(owner: LibraryOwner): Promise<LibraryRecord[]> {
    const [user, room] = ownerColumns(owner);
    const { rows } = await this.pool.query<Row>(
      `SELECT ${COLUMNS} FROM media_libraries WHERE owner_user_id IS NOT DISTINCT FROM $1::uuid AND owner_room_id IS NOT DISTINCT FROM $2 ORDER BY created_at, id`,
      [user, room],
    );
    return rows.map(recordOf);
  }

  async get(id: string): Promise<LibraryRecord | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(id)) return null;
    const { rows } = await this.pool.query<Row>(`SELECT ${COLUMNS} FROM media_libraries WHERE id = $1`, [id]);
    return rows[0] ? recordOf(rows[0]) : null;
  }

  /**
   * Whether the library may be read in `roomId` now: it is that room's library, or a personal
   * library whose owner is the room's owner or an active member of it (not banned, kicked or
   * gone); null when there is no such library (removed). One query, on the rows the room actor
   * commits before it answers a ban or a kick.
   */
  async usableInRoom(id: string, roomId: string): Promise<boolean | null> {
    const { rows } = await this.pool.query<{ usable: boolean }>(
      `SELECT (l.owner_room_id = $2
               OR EXISTS (SELECT 1 FROM rooms r WHERE r.id = $2 AND r.owner_id = l.owner_user_id::text)
               OR EXISTS (SELECT 1 FROM room_members m WHERE m.room_id = $2 AND m.user_id = l.owner_user_id::text AND m.status = 'active')) AS usable
         FROM media_libraries l WHERE l.id = $1`,
      [id, roomId],
    );
    return rows[0] ? rows[0].usable === true : null;
  }

  /** The connection with its secret opened, for a connector call. */
  async access(id: string): Promise<LibraryAccess | null> {
    const { rows } = await this.pool.query<{ url: string; username: string; secret_sealed: string }>('SELECT url, username, secret_sealed FROM media_libraries WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return null;
    return { url: row.url, username: row.username, secret: this.box.openText(row.secret_sealed, context(id)) };
  }

  /** Stores a connection; `limit_exceeded` when its owner already has `LIBRARY_LIMITS.perOwner`. */
  async insert(library: NewLibrary): Promise<LibraryRecord> {
    const id = `lib_${randomBytes(12).toString('base64url')}`;
    const [user, room] = ownerColumns(library.owner);
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One owner's connects in turn, so two at once cannot both pass the cap.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`media_libraries:${user ?? ''}:${room ?? ''}`]);
      const { rows: counted } = await client.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM media_libraries WHERE owner_user_id IS NOT DISTINCT FROM $1::uuid AND owner_room_id IS NOT DISTINCT FROM $2',
        [user, room],
      );
      if ((counted[0]?.n ?? 0) >= LIBRARY_LIMITS.perOwner) {
        const whose = library.owner.kind === 'user' ? 'you have' : 'this room has';
        throw new AppError('limit_exceeded', `${whose} ${LIBRARY_LIMITS.perOwner} libraries, the most allowed; remove one first`);
      }
      const { rows } = await client.query<Row>(
        `INSERT INTO media_libraries (id, kind, name, url, username, secret_sealed, owner_user_id, owner_room_id, transcoder, created_by)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING ${COLUMNS}`,
        [id, library.kind, library.name, library.url, library.username, this.box.seal(library.secret, context(id)), user, room, library.transcoder, library.createdBy],
      );
      await client.query('COMMIT');
      return recordOf(rows[0]!);
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      if ((err as { code?: string }).code === '23503') throw new AppError('not_found', 'the room or account this library was for no longer exists', [], { cause: err });
      throw err;
    } finally {
      client.release();
    }
  }

  /** Applies an edit; null when the library is gone. */
  async update(id: string, changes: LibraryChanges): Promise<LibraryRecord | null> {
    const { rows } = await this.pool.query<Row>(
      `UPDATE media_libraries SET name = COALESCE($2, name), transcoder = COALESCE($3, transcoder) WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, changes.name ?? null, changes.transcoder ?? null],
    );
    return rows[0] ? recordOf(rows[0]) : null;
  }

  async delete(id: string): Promise<boolean> {
    const { rowCount } = await this.pool.query('DELETE FROM media_libraries WHERE id = $1', [id]);
    return (rowCount ?? 0) > 0;
  }
}
