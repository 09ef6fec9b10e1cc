/**
 * The public room directory: active public rooms, newest first, optionally filtered by a
 * name substring, read from PostgreSQL (not from the actors: a directory must not wake every
 * room). The cursor is the last row's `(created_at, id)`, so pages neither skip nor repeat a
 * room when rooms are created or deleted between requests.
 */
import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import type { ListPublicRoomsResponse__Output } from './gen/svc/v1/ListPublicRoomsResponse.js';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;
const MAX_QUERY_CHARS = 100;

interface Row {
  id: string;
  name: string;
  owner_id: string;
  has_password: boolean;
  require_join_approval: boolean;
  member_count: number;
  created_at_ms: string;
  /** created_at as PostgreSQL prints it: microseconds and offset, exact for the cursor. */
  created_at_text: string;
}

export class PublicRooms {
  constructor(private readonly pool: pg.Pool) {}

  async list(input: { query: string; pageSize: number; pageToken: string }): Promise<ListPublicRoomsResponse__Output> {
    const query = input.query.trim();
    if ([...query].length > MAX_QUERY_CHARS) throw AppError.invalid([{ key: 'query', message: `must be at most ${MAX_QUERY_CHARS} characters` }]);
    if (input.pageSize > MAX_PAGE_SIZE) throw AppError.invalid([{ key: 'pageSize', message: `must be at most ${MAX_PAGE_SIZE} (0: the default, ${DEFAULT_PAGE_SIZE})` }]);
    const pageSize = input.pageSize || DEFAULT_PAGE_SIZE;
    const after = input.pageToken ? decodeCursor(input.pageToken) : undefined;
    const { rows } = await this.pool.query<Row>(
      `SELECT r.id, r.name, r.owner_id,
              r.password_hash IS NOT NULL AS has_password,
              COALESCE(r.settings->>'requireJoinApproval' = 'true', false) AS require_join_approval,
              (SELECT count(*)::int FROM room_members m WHERE m.room_id = r.id AND m.status = 'active') AS member_count,
              (extract(epoch FROM r.created_at) * 1000)::bigint::text AS created_at_ms,
              r.created_at::text AS created_at_text
         FROM rooms r
        WHERE r.visibility = 'public' AND r.status = 'active'
          AND ($1::text = '' OR r.name ILIKE '%' || $1 || '%' ESCAPE '\\')
          AND ($2::timestamptz IS NULL OR (r.created_at, r.id) < ($2::timestamptz, $3::text))
        ORDER BY r.created_at DESC, r.id DESC
        LIMIT $4`,
      [escapeLike(query), after?.createdAt ?? null, after?.id ?? '', pageSize + 1],
    );
    const page = rows.slice(0, pageSize);
    const last = page.at(-1);
    return {
      rooms: page.map((row) => ({
        id: row.id,
        name: row.name,
        ownerId: row.owner_id,
        hasPassword: row.has_password,
        requireJoinApproval: row.require_join_approval,
        memberCount: row.member_count,
        createdAt: Number(row.created_at_ms),
      })),
      nextPageToken: rows.length > pageSize && last ? encodeCursor({ createdAt: last.created_at_text, id: last.id }) : '',
    };
  }
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (char) => `\\${char}`);
}

/** `2026-11-23 10:45:12.123456+00`, as `timestamptz::text` prints it (UTC sessions and others). */
const PG_TIMESTAMPTZ = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

interface Cursor {
  createdAt: string;
  id: string;
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

function decodeCursor(token: string): Cursor {
  const invalid = AppError.invalid([{ key: 'pageToken', message: 'is not a page token of this list' }]);
  if (token.length > 512) throw invalid;
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && typeof value[1] === 'string' && typeof value[0] === 'string' && PG_TIMESTAMPTZ.test(value[0])) {
      return { createdAt: value[0], id: value[1] };
    }
  } catch {
    // Falls through to the same answer as a well-formed token of the wrong shape.
  }
  throw invalid;
}
