import type pg from 'pg';
import { AppError } from '../errors/app-error.js';
import { withTransaction } from '../store/transaction.js';
import { setPassword } from './credentials.js';
import { hashPassword } from './methods/argon2.js';
import { SERVICE_ROLES, USER_STATES, type ServiceRole, type User, type UserState } from './model.js';
import { checkPassword } from './password-policy.js';
import type { SessionStore } from './sessions/session-store.js';
import { findUserById, findUserByUsernameKey, insertUser, isUuid, setUserRole, setUserState, type Queryable } from './users.js';
import { parseUsername, usernameKey } from './username.js';

/**
 * What operators (`svc user ...`, through the management endpoint) and service admins (the
 * admin API) do to accounts. Every change is one transaction; a ban signs out every session
 * in it, and since each request re-reads its session and user, the banned user's next request
 * is refused, not the one after the access token expires.
 */
export interface UserDetails extends User {
  credentials: { password: 'opaque' | 'argon2' | null; passkeys: number; oauth2: string[]; totp: boolean };
  activeSessions: number;
}

export interface UserFilter {
  role?: ServiceRole;
  state?: UserState;
  /** Usernames starting with this (case-insensitive). */
  prefix?: string;
  /** The username key to continue after (keyset paging: the last one of the previous page). */
  after?: string;
  limit: number;
}

export const MAX_USER_PAGE = 500;

export class UserAdmin {
  constructor(private readonly deps: { pool: pg.Pool; sessions: SessionStore }) {}

  /** A user by id or username; `not_found` naming what was asked for. */
  async find(ref: string, db: Queryable = this.deps.pool): Promise<User> {
    const user = isUuid(ref) ? await findUserById(db, ref) : await findUserByUsernameKey(db, usernameKey(ref.normalize('NFKC').trim()));
    if (!user) throw new AppError('not_found', `no user "${ref}" (give a username or a user id)`);
    return user;
  }

  async list(filter: UserFilter): Promise<{ users: User[]; next?: string }> {
    if (!Number.isInteger(filter.limit) || filter.limit < 1 || filter.limit > MAX_USER_PAGE) {
      throw AppError.invalid([{ key: 'limit', message: `must be an integer in 1..=${MAX_USER_PAGE}` }]);
    }
    if (filter.role !== undefined && !SERVICE_ROLES.includes(filter.role)) throw AppError.invalid([{ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` }]);
    if (filter.state !== undefined && !USER_STATES.includes(filter.state)) throw AppError.invalid([{ key: 'state', message: `must be one of ${USER_STATES.join(', ')}` }]);
    const prefix = filter.prefix ? usernameKey(filter.prefix) : '';
    const { rows } = await this.deps.pool.query<{ id: string; username_key: string }>(
      `SELECT id, username_key FROM users
        WHERE username_key > $1 AND ($2::text IS NULL OR role = $2) AND ($3::text IS NULL OR state = $3)
          AND starts_with(username_key, $4)
        ORDER BY username_key LIMIT $5`,
      [filter.after ?? '', filter.role ?? null, filter.state ?? null, prefix, filter.limit + 1],
    );
    const page = rows.slice(0, filter.limit);
    const users = await Promise.all(page.map((row) => this.find(row.id)));
    return { users, ...(rows.length > filter.limit ? { next: page.at(-1)!.username_key } : {}) };
  }

  async show(ref: string): Promise<UserDetails> {
    const user = await this.find(ref);
    const { rows } = await this.deps.pool.query<{ password: 'opaque' | 'argon2' | null; passkeys: string; oauth2: string[] | null; totp: boolean; sessions: string }>(
      `SELECT (SELECT kind FROM password_credentials WHERE user_id = $1) AS password,
              (SELECT count(*) FROM webauthn_credentials WHERE user_id = $1) AS passkeys,
              (SELECT array_agg(instance_name ORDER BY instance_name) FROM oauth2_bindings WHERE user_id = $1) AS oauth2,
              EXISTS (SELECT 1 FROM totp_credentials WHERE user_id = $1 AND enabled_at IS NOT NULL) AS totp,
              (SELECT count(*) FROM sessions WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now()) AS sessions`,
      [user.id],
    );
    const row = rows[0]!;
    return {
      ...user,
      credentials: { password: row.password, passkeys: Number(row.passkeys), oauth2: row.oauth2 ?? [], totp: row.totp },
      activeSessions: Number(row.sessions),
    };
  }

  /** Bans and signs out every session, at once. Root accounts cannot be banned (demote first). */
  async ban(ref: string): Promise<{ user: User; revokedSessions: number }> {
    return withTransaction(this.deps.pool, async (db) => {
      const target = await this.lockUser(db, ref);
      if (target.role === 'root') throw new AppError('conflict', `"${target.username}" is a root account; demote it with set-role before banning it`);
      const user = (await setUserState(db, target.id, 'banned'))!;
      const revokedSessions = await this.deps.sessions.revokeAll(db, user.id, 'banned');
      return { user, revokedSessions };
    });
  }

  async unban(ref: string): Promise<User> {
    return withTransaction(this.deps.pool, async (db) => (await setUserState(db, (await this.lockUser(db, ref)).id, 'active'))!);
  }

  /** Changes the service role; the last root account keeps its role, so the service always has one. */
  async setRole(ref: string, role: ServiceRole): Promise<User> {
    if (!SERVICE_ROLES.includes(role)) throw AppError.invalid([{ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` }]);
    return withTransaction(this.deps.pool, async (db) => {
      // Role changes queue on one lock, so two demotions cannot both see another root left.
      await db.query("SELECT id FROM users WHERE role = 'root' FOR UPDATE");
      const target = await this.lockUser(db, ref);
      if (target.role === 'root' && role !== 'root') {
        const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM users WHERE role = 'root' AND state = 'active'");
        if (Number(rows[0]?.n ?? 0) <= 1) throw new AppError('conflict', `"${target.username}" is the last root account; make another account root first`);
      }
      return (await setUserRole(db, target.id, role))!;
    });
  }

  /**
   * Sets a new password as an Argon2id hash (the operator typed it, so it is not an OPAQUE
   * registration; the user moves back to OPAQUE by changing it) and signs out every session.
   */
  async resetPassword(ref: string, password: string): Promise<{ user: User; revokedSessions: number }> {
    const target = await this.find(ref);
    checkPassword(password, target.username);
    const hash = await hashPassword(password);
    return withTransaction(this.deps.pool, async (db) => {
      const user = await this.lockUser(db, target.id);
      await setPassword(db, user.id, 'argon2', hash);
      return { user, revokedSessions: await this.deps.sessions.revokeAll(db, user.id, 'password_reset_by_operator') };
    });
  }

  /**
   * The first administrator, from the terminal. Refused while a root account exists unless
   * `additional` says another one is meant: a stray script must not mint roots.
   */
  async createRoot(input: { username: string; password: string; additional?: boolean }): Promise<User> {
    const username = parseUsername(input.username);
    checkPassword(input.password, username.name);
    const hash = await hashPassword(input.password);
    return withTransaction(this.deps.pool, async (db) => {
      await db.query('LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await db.query<{ username: string }>("SELECT username FROM users WHERE role = 'root' ORDER BY created_at LIMIT 1");
      if (rows[0] && !input.additional) {
        throw new AppError('conflict', `a root account exists ("${rows[0].username}"); pass --allow-additional to create another`);
      }
      const user = await insertUser(db, { username: username.name, usernameKey: username.key, displayName: username.name, role: 'root' });
      await setPassword(db, user.id, 'argon2', hash);
      return user;
    });
  }

  private async lockUser(db: Queryable, ref: string): Promise<User> {
    const user = await this.find(ref, db);
    await db.query('SELECT 1 FROM users WHERE id = $1 FOR UPDATE', [user.id]);
    return user;
  }
}
