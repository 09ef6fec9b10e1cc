import { AppError } from '../errors/index.js';
import type { User } from './model.js';
import { USER_COLUMNS, userFromRow, type Queryable, type UserRow } from './users.js';

/**
 * What a user changes about themselves. The display name is what rooms and chat show; rooms
 * pick a new one up from the user's next command (the session re-reads the user on every
 * request).
 */
export const DISPLAY_NAME_MAX_CHARS = 64;
/** Control, private-use and unpaired surrogate code points, and bidi overrides and isolates. */
const FORBIDDEN = /[\p{Cc}\p{Co}\p{Cs}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/u;
const VISIBLE = /[^\p{White_Space}\p{Cf}]/u;

/** The display name as stored (NFC, trimmed), or `invalid_argument` naming `displayName`. */
export function checkDisplayName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  const refuse = (message: string): never => {
    throw AppError.invalid([{ key: 'displayName', message }]);
  };
  if (!VISIBLE.test(name)) return refuse('must contain a visible character');
  if ([...name].length > DISPLAY_NAME_MAX_CHARS) return refuse(`must be at most ${DISPLAY_NAME_MAX_CHARS} characters`);
  if (FORBIDDEN.test(name)) return refuse('must not contain control, private-use or bidi-override characters');
  return name;
}

export async function updateDisplayName(db: Queryable, userId: string, raw: string): Promise<User> {
  const displayName = checkDisplayName(raw);
  const { rows } = await db.query<UserRow>(`UPDATE users SET display_name = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`, [userId, displayName]);
  const row = rows[0];
  if (!row) throw new AppError('unauthenticated', 'the account no longer exists');
  return userFromRow(row);
}
