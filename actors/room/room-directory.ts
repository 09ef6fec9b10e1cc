/**
 * Room listings the room actors cannot answer (each actor knows only its own room): the public
 * directory, a user's own rooms and the admin listing, read from PostgreSQL (`rooms`,
 * `room_members`; indexes in migration 0006). Pages are keyset-paged on (created_at, id),
 * newest first, with a cursor naming that position (see ROOM_CURSOR); a name search matches word
 * prefixes through a `simple` text-search vector. docs/2026-11-23-rooms-api.md explains the choices.
 */
import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import type { AdminRoomSummary } from '../../contracts/http/admin-rooms.js';
import type { RoomSummary } from '../../contracts/http/room.js';
import type { RoomStatus, RoomVisibility } from '../../contracts/room/model.js';
import { ROOM_CURSOR } from '../../contracts/http/rooms.js';

/** The listings' entries are the endpoints' schemas (contracts/http/room.ts, admin-rooms.ts). */
export type { AdminRoomSummary, RoomSummary };

export interface Page<T> {
  rooms: T[];
  nextCursor?: string;
}

export interface MyRoom {
  room: RoomSummary;
  role: 'admin' | 'member' | 'guest' | null;
  isOwner: boolean;
}

export interface AdminRoomFilter {
  status?: RoomStatus;
  visibility?: RoomVisibility;
  ownerId?: string;
  query?: string;
}

export const DEFAULT_ROOM_PAGE = 20;
/** Words of a search beyond this are ignored; each word is cut to this many characters. */
const MAX_SEARCH_WORDS = 8;
const MAX_WORD_CHARS = 64;

interface SummaryRow {
  id: string;
  name: string;
  visibility: RoomVisibility;
  status: RoomStatus;
  has_password: boolean;
  require_join_approval: boolean;
  member_count: string;
  created_ms: string;
  cursor_us: string;
}

const SUMMARY_COLUMNS = `r.id, r.name, r.visibility, r.status, r.password_hash IS NOT NULL AS has_password,
  COALESCE(r.settings->>'requireJoinApproval' = 'true', false) AS require_join_approval,
  (SELECT count(*) FROM room_members m WHERE m.room_id = r.id AND m.status = 'active') AS member_count,
  floor(extract(epoch FROM r.created_at) * 1000)::bigint AS created_ms,
  (extract(epoch FROM r.created_at) * 1000000)::bigint AS cursor_us`;

/** Builds a WHERE clause with numbered parameters. */
class Conditions {
  readonly parts: string[] = [];
  readonly values: unknown[] = [];

  param(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }

  where(): string {
    return this.parts.length > 0 ? `WHERE ${this.parts.join(' AND ')}` : '';
  }
}

export class RoomDirectory {
  constructor(private readonly pool: pg.Pool) {}

  /** Active public rooms, newest first; `query` keeps those whose name has words starting with each of its words. */
  async listPublic(options: { query?: string | undefined; cursor?: string | undefined; limit?: number | undefined }): Promise<Page<RoomSummary>> {
    const limit = options.limit ?? DEFAULT_ROOM_PAGE;
    const where = new Conditions();
    where.parts.push(`r.visibility = 'public'`, `r.status = 'active'`);
    this.search(where, options.query);
    this.after(where, options.cursor);
    const { rows } = await this.pool.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM rooms r ${where.where()} ORDER BY r.created_at DESC, r.id COLLATE "C" DESC LIMIT ${where.param(limit + 1)}`,
      where.values,
    );
    return page(rows, limit, summaryOf);
  }

  /** Rooms the user owns (any status) or is an active member of (active rooms), newest first. */
  async listMine(userId: string, options: { cursor?: string | undefined; limit?: number | undefined }): Promise<Page<MyRoom>> {
    const limit = options.limit ?? DEFAULT_ROOM_PAGE;
    const where = new Conditions();
    const me = where.param(userId);
    where.parts.push(
      `r.id IN (SELECT id FROM rooms WHERE owner_id = ${me} UNION SELECT room_id FROM room_members WHERE user_id = ${me} AND status = 'active')`,
      `(r.status = 'active' OR r.owner_id = ${me})`,
    );
    this.after(where, options.cursor);
    const { rows } = await this.pool.query<SummaryRow & { role: MyRoom['role']; is_owner: boolean }>(
      `SELECT ${SUMMARY_COLUMNS}, me.role, r.owner_id = ${me} AS is_owner
         FROM rooms r LEFT JOIN room_members me ON me.room_id = r.id AND me.user_id = ${me} AND me.status = 'active'
         ${where.where()} ORDER BY r.created_at DESC, r.id COLLATE "C" DESC LIMIT ${where.param(limit + 1)}`,
      where.values,
    );
    return page(rows, limit, (row) => ({ room: summaryOf(row), role: row.role ?? null, isOwner: row.is_owner }));
  }

  /**
   * The user's favourite rooms they may still see, most recently starred first: active rooms
   * that are public or that they own or are an active member of, never one that banned them.
   * Not paged: a user has at most FAVOURITE_ROOMS_MAX (gateways/rooms/favourite-rooms.ts).
   */
  async listFavourites(userId: string): Promise<RoomSummary[]> {
    const { rows } = await this.pool.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM favourite_rooms f JOIN rooms r ON r.id = f.room_id
        WHERE f.user_id = $1 AND ${visibleToUser('$1')}
        ORDER BY f.created_at DESC, r.id`,
      [userId],
    );
    return rows.map(summaryOf);
  }

  /** Every room, whatever its status and visibility, newest first (service administrators). */
  async listAll(filter: AdminRoomFilter, options: { cursor?: string; limit?: number }): Promise<Page<AdminRoomSummary>> {
    const limit = options.limit ?? DEFAULT_ROOM_PAGE;
    const where = new Conditions();
    if (filter.status) where.parts.push(`r.status = ${where.param(filter.status)}`);
    if (filter.visibility) where.parts.push(`r.visibility = ${where.param(filter.visibility)}`);
    if (filter.ownerId) where.parts.push(`r.owner_id = ${where.param(filter.ownerId)}`);
    this.search(where, filter.query);
    this.after(where, options.cursor);
    const { rows } = await this.pool.query<SummaryRow & { owner_id: string; owner_username: string | null }>(
      `SELECT ${SUMMARY_COLUMNS}, r.owner_id,
              (SELECT u.username FROM users u
                WHERE u.id = CASE WHEN r.owner_id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' THEN r.owner_id::uuid END) AS owner_username
         FROM rooms r ${where.where()} ORDER BY r.created_at DESC, r.id COLLATE "C" DESC LIMIT ${where.param(limit + 1)}`,
      where.values,
    );
    return page(rows, limit, (row) => ({ ...summaryOf(row), ownerId: row.owner_id, ownerUsername: row.owner_username }));
  }

  private search(where: Conditions, query: string | undefined): void {
    const tsquery = prefixQuery(query ?? '');
    if (tsquery) where.parts.push(`to_tsvector('simple', r.name) @@ to_tsquery('simple', ${where.param(tsquery)})`);
  }

  private after(where: Conditions, cursor: string | undefined): void {
    if (cursor === undefined) return;
    const [micros, id] = decodeCursor(cursor);
    // Microseconds since the epoch as an interval: exact below 2^53 (the year 2255), and any
    // number the cursor's 16 digits hold is a timestamp PostgreSQL can represent.
    where.parts.push(`(r.created_at, r.id COLLATE "C") < (timestamptz 'epoch' + ${where.param(micros)}::bigint * interval '1 microsecond', ${where.param(id)}::text)`);
  }
}

/**
 * The words of a search (runs of letters and digits, case-folded), each as a prefix match:
 * `'star':* & 'wars':*`. Only letters and digits reach the query, so nothing in it is syntax.
 * Undefined when there are no words: the listing is then not filtered.
 */
export function prefixQuery(query: string): string | undefined {
  const words = (query.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [])
    .slice(0, MAX_SEARCH_WORDS)
    .map((word) => [...word].slice(0, MAX_WORD_CHARS).join(''));
  return words.length > 0 ? words.map((word) => `'${word}':*`).join(' & ') : undefined;
}

function summaryOf(row: SummaryRow): RoomSummary {
  return {
    id: row.id,
    name: row.name,
    visibility: row.visibility,
    status: row.status,
    hasPassword: row.has_password,
    requireJoinApproval: row.require_join_approval,
    memberCount: Number(row.member_count),
    createdAt: Number(row.created_ms),
  };
}

function page<R extends SummaryRow, T>(rows: R[], limit: number, map: (row: R) => T): Page<T> {
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  const items = shown.map(map);
  return rows.length > limit && last ? { rooms: items, nextCursor: encodeCursor(last.cursor_us, last.id) } : { rooms: items };
}

/** The cursor of a page ending at this room (ROOM_CURSOR: its created_at in microseconds, its id). */
export function encodeCursor(micros: string, id: string): string {
  return `${micros}.${id}`;
}

function decodeCursor(cursor: string): [string, string] {
  const match = ROOM_CURSOR.exec(cursor);
  if (!match) throw AppError.invalid([{ key: 'cursor', message: 'is not a cursor this listing returned' }]);
  return [match[1]!, match[2]!];
}

/** SQL: room `r` is one the user `me` (a parameter of uuid text) may see in a listing of their own. */
export function visibleToUser(me: string): string {
  return `r.status = 'active'
    AND NOT EXISTS (SELECT 1 FROM room_members b WHERE b.room_id = r.id AND b.user_id = ${me}::text AND b.status = 'banned')
    AND (r.visibility = 'public' OR r.owner_id = ${me}::text
         OR EXISTS (SELECT 1 FROM room_members m WHERE m.room_id = r.id AND m.user_id = ${me}::text AND m.status = 'active'))`;
}
