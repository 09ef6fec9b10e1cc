import type pg from 'pg';
import { AppError } from '../errors/index.js';
import type { ServiceRole, User, UserState } from './model.js';

/** A pool or a client inside a transaction: user writes often share a transaction. */
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export interface UserRow {
  id: string;
  username: string;
  display_name: string;
  email: string | null;
  role: ServiceRole;
  state: UserState;
  created_at: Date;
  last_login_at: Date | null;
}

/** The columns every whole-user query selects (mapped by `userFromRow`). */
export const USER_COLUMNS = 'id, username, display_name, email, role, state, created_at, last_login_at';

export interface NewUser {
  username: string;
  usernameKey: string;
  displayName: string;
  email?: string | null;
  role?: ServiceRole;
  /** The registration review that approved it, making approval idempotent. */
  reviewId?: string;
}

/** Inserts a user; a taken username (a closed account's included) is `conflict` naming it. */
export async function insertUser(db: Queryable, user: NewUser): Promise<User> {
  const retired = await db.query('SELECT 1 FROM retired_usernames WHERE username_key = $1', [user.usernameKey]);
  if ((retired.rowCount ?? 0) > 0) throw new AppError('conflict', `username "${user.username}" is taken`, [{ key: 'username', message: 'is taken' }]);
  try {
    const { rows } = await db.query<UserRow>(
      `INSERT INTO users (username, username_key, display_name, email, email_key, role, review_id)
       VALUES ($1, $2, $3, $4, lower($4), $5, $6) RETURNING ${USER_COLUMNS}`,
      [user.username, user.usernameKey, user.displayName, user.email ?? null, user.role ?? 'user', user.reviewId ?? null],
    );
    return userFromRow(rows[0]!);
  } catch (err) {
    const constraint = (err as { code?: string; constraint?: string }).code === '23505' ? (err as { constraint?: string }).constraint : undefined;
    if (constraint === 'users_username_key_key') throw new AppError('conflict', `username "${user.username}" is taken`, [{ key: 'username', message: 'is taken' }]);
    if (constraint === 'users_email_key_key') throw new AppError('conflict', 'an account with this email address exists', [{ key: 'email', message: 'is taken' }]);
    throw err;
  }
}

export async function findUserById(db: Queryable, id: string): Promise<User | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
  return rows[0] && userFromRow(rows[0]);
}

export async function findUserByUsernameKey(db: Queryable, key: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE username_key = $1`, [key]);
  return rows[0] && userFromRow(rows[0]);
}

export async function findUserByEmail(db: Queryable, email: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email_key = lower($1)`, [email]);
  return rows[0] && userFromRow(rows[0]);
}

export async function findUserByReview(db: Queryable, reviewId: string): Promise<User | undefined> {
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE review_id = $1`, [reviewId]);
  return rows[0] && userFromRow(rows[0]);
}

/** Ids come from URLs and tokens; a malformed one is simply not found rather than a cast error. */
export function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

/** Maps a row selected with USER_COLUMNS. */
export function userFromRow(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    displayName: row.display_name,
    email: row.email,
    role: row.role,
    state: row.state,
    createdAt: row.created_at,
    lastLoginAt: row.last_login_at,
  };
}
