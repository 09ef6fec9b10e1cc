import { ADMIN_USER_CURSOR } from '../contracts/http/admin.js';
import { AppError, type FieldIssue } from '../errors/index.js';
import type { PasswordKind } from './credentials.js';
import { SERVICE_ROLES, USER_STATES, type ServiceRole, type User, type UserState } from './model.js';
import { findUserById, findUserByUsernameKey, isUuid, USER_COLUMNS, userFromRow, type Queryable, type UserRow } from './users.js';
import { usernameKey } from './username.js';

/**
 * The read side of user administration: finding an account by what an operator types,
 * listing accounts page by page, and what an account signs in with. Never a secret: the
 * details say which kinds of credential exist, not what they hold.
 */
export interface UserFilter {
  role?: ServiceRole;
  state?: UserState;
  /** Usernames starting with this (compared case-folded, after NFKC). */
  prefix?: string;
  /** 1..=MAX_PAGE. */
  limit: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

export interface UserPage {
  users: User[];
  /** Present when more users may follow. */
  nextCursor?: string;
}

export interface UserDetails {
  user: User;
  credentials: { password: PasswordKind | null; passkeys: number; oauth2: string[] };
  twoFactor: { enabled: boolean; recoveryCodesLeft: number };
  /** Sessions neither revoked nor expired. */
  liveSessions: number;
}

export const MAX_PAGE = 200;
export const DEFAULT_PAGE = 50;
const MAX_PREFIX_CHARS = 32;

/** A user id (UUID) or a username, as typed; a reference to nobody is `not_found`. */
export async function findUserByRef(db: Queryable, ref: string): Promise<User> {
  // A UUID is 36 characters and usernames at most 32, so the two forms cannot collide.
  const user = isUuid(ref) ? await findUserById(db, ref) : await findUserByUsernameKey(db, usernameKey(ref.trim()));
  if (!user) throw new AppError('not_found', `no user "${ref}"`, [{ key: 'user', message: 'names no user' }]);
  return user;
}

/** Users in username order (case-folded), filtered, one page at a time (keyset paging). */
export async function searchUsers(db: Queryable, filter: UserFilter): Promise<UserPage> {
  const issues: FieldIssue[] = [];
  if (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > MAX_PAGE) issues.push({ key: 'limit', message: `must be an integer in 1..=${MAX_PAGE}` });
  if (filter.role !== undefined && !SERVICE_ROLES.includes(filter.role)) issues.push({ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` });
  if (filter.state !== undefined && !USER_STATES.includes(filter.state)) issues.push({ key: 'state', message: `must be one of ${USER_STATES.join(', ')}` });
  const prefix = filter.prefix === undefined ? '' : usernameKey(filter.prefix.trim());
  if ([...prefix].length > MAX_PREFIX_CHARS) issues.push({ key: 'q', message: `must be at most ${MAX_PREFIX_CHARS} characters` });
  const after = filter.cursor === undefined ? '' : decodeCursor(filter.cursor);
  if (after === undefined) issues.push({ key: 'cursor', message: 'is not a cursor this listing returned' });
  if (issues.length > 0) throw AppError.invalid(issues);

  // One more row than asked tells whether another page exists.
  const { rows } = await db.query<UserRow & { username_key: string }>(
    `SELECT ${USER_COLUMNS}, username_key FROM users
      WHERE username_key > $1 AND ($2::text IS NULL OR role = $2) AND ($3::text IS NULL OR state = $3)
        AND ($4 = '' OR starts_with(username_key, $4))
      ORDER BY username_key LIMIT $5`,
    [after ?? '', filter.role ?? null, filter.state ?? null, prefix, filter.limit + 1],
  );
  const page = rows.slice(0, filter.limit);
  const users = page.map(userFromRow);
  const last = page.at(-1);
  return rows.length > filter.limit && last ? { users, nextCursor: Buffer.from(last.username_key, 'utf8').toString('base64url') } : { users };
}

export async function describeUser(db: Queryable, user: User): Promise<UserDetails> {
  const { rows } = await db.query<{
    password: PasswordKind | null;
    passkeys: string;
    oauth2: string[] | null;
    totp: boolean;
    recovery: string;
    sessions: string;
  }>(
    `SELECT (SELECT kind FROM password_credentials WHERE user_id = $1) AS password,
            (SELECT count(*) FROM webauthn_credentials WHERE user_id = $1) AS passkeys,
            (SELECT array_agg(instance_name ORDER BY instance_name) FROM oauth2_bindings WHERE user_id = $1) AS oauth2,
            EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = $1 AND enabled_at IS NOT NULL) AS totp,
            (SELECT count(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL) AS recovery,
            (SELECT count(*) FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()) AS sessions`,
    [user.id],
  );
  const row = rows[0]!;
  return {
    user,
    credentials: { password: row.password, passkeys: Number(row.passkeys), oauth2: row.oauth2 ?? [] },
    twoFactor: { enabled: row.totp, recoveryCodesLeft: row.totp ? Number(row.recovery) : 0 },
    liveSessions: Number(row.sessions),
  };
}

/**
 * The position a cursor names: the username key it carries (base64url of its UTF-8), whatever
 * the bytes (ADMIN_USER_CURSOR is the whole rule, so a cursor a client makes up is a position
 * too, not an error). Keys hold no NUL, so a key cut at its first NUL sorts the same against
 * every key; bytes that are not UTF-8 become U+FFFD. Undefined when the form is not a cursor's.
 */
function decodeCursor(cursor: string): string | undefined {
  if (!ADMIN_USER_CURSOR.test(cursor)) return undefined;
  const key = Buffer.from(cursor, 'base64url').toString('utf8');
  const nul = key.indexOf('\u0000');
  return nul < 0 ? key : key.slice(0, nul);
}
