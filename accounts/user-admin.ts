import type pg from 'pg';
import { AppError, isAppError, type FieldIssue } from '../errors/index.js';
import { advisoryLockNamespaces, advisoryLocks } from '../postgres/index.js';
import { withTransaction } from '../postgres/index.js';
import { actingRole, checkRoleChange, checkStateChange, keepAnActiveRoot, type AdminActor } from './admin-policy.js';
import { setPassword } from './credentials.js';
import { passwordSecret, type NewPassword } from './methods/new-password.js';
import type { OpaqueMethod } from './methods/opaque.js';
import { SERVICE_ROLES, type ServiceRole, type User, type UserState } from './model.js';
import { checkPassword } from './password-policy.js';
import type { SessionStore } from './sessions/session-store.js';
import { describeUser, findUserByRef, searchUsers, type UserDetails, type UserFilter, type UserPage } from './user-directory.js';
import { insertUser, USER_COLUMNS, userFromRow, type Queryable, type UserRow } from './users.js';
import { parseUsername, type Username } from './username.js';

/**
 * Administering accounts: what `svc user` (the operator, through the management endpoint) and
 * the admin HTTP endpoints (administrators, within their role: accounts/admin-policy.ts) do.
 * Every change is one transaction that locks the account's row; changes that can touch a root
 * also take the `serviceRoles` lock, so the last active root cannot be removed by two changes
 * racing each other.
 *
 * A ban takes effect at once: the sessions are revoked in the ban's transaction (and announced
 * to every gateway after it, which closes what they opened: accounts/sessions/revocation.ts), and every
 * request re-reads its session and user (`SessionStore.resolve`), every refresh re-checks the
 * user's state (`SessionStore.rotate`) and every sign-in refuses a banned user (`SignIn`).
 */
export interface UserChange {
  user: User;
  /** False when the account already was as asked (nothing was written). */
  changed: boolean;
  revokedSessions: number;
}

/** The `revoke_reason` of sessions a ban ended. */
export const BAN_REVOKE_REASON = 'banned';
export const OPERATOR_RESET_REVOKE_REASON = 'password_reset_by_operator';

export class UserAdmin {
  constructor(private readonly deps: { pool: pg.Pool; sessions: SessionStore; opaque: Pick<OpaqueMethod, 'registrationResponse'> }) {}

  list(filter: UserFilter): Promise<UserPage> {
    return searchUsers(this.deps.pool, filter);
  }

  async show(ref: string): Promise<UserDetails> {
    return describeUser(this.deps.pool, await findUserByRef(this.deps.pool, ref));
  }

  /** Bans the account and revokes every session of it, in one transaction. */
  ban(actor: AdminActor, ref: string): Promise<UserChange> {
    return this.changeState(actor, ref, 'banned');
  }

  /** Lets the account sign in again; the sessions the ban ended stay ended. */
  unban(actor: AdminActor, ref: string): Promise<UserChange> {
    return this.changeState(actor, ref, 'active');
  }

  /**
   * Sets the service role. It applies from the account's next request: the role is read with
   * the session on every request, never taken from the access token.
   */
  async setRole(actor: AdminActor, ref: string, role: string): Promise<UserChange> {
    if (!(SERVICE_ROLES as readonly string[]).includes(role)) throw AppError.invalid([{ key: 'role', message: `must be one of ${SERVICE_ROLES.join(', ')}` }]);
    const next = role as ServiceRole;
    return withTransaction(this.deps.pool, async (db) => {
      await lockServiceRoles(db);
      const acting = await actingRole(db, actor);
      const target = await lockUser(db, ref);
      checkRoleChange(acting, actor, target);
      if (target.role === next) return { user: target, changed: false, revokedSessions: 0 };
      await keepAnActiveRoot(db, target, { role: next, state: target.state });
      const user = await updateUser(db, target.id, 'role', next);
      return { user, changed: true, revokedSessions: 0 };
    });
  }

  /**
   * The server's OPAQUE registration message for a new root's username: `svc user create-root`
   * runs the client side itself and sends the record, so the password never leaves the CLI.
   */
  rootRegistrationResponse(username: string, registrationRequest: string): Promise<{ registrationResponse: string }> {
    return this.deps.opaque.registrationResponse(parseUsername(username).key, registrationRequest);
  }

  /** The same for `svc user reset-password` of an existing account. */
  async resetRegistrationResponse(ref: string, registrationRequest: string): Promise<{ registrationResponse: string }> {
    const found = await findUserByRef(this.deps.pool, ref);
    return this.deps.opaque.registrationResponse(parseUsername(found.username).key, registrationRequest);
  }

  /**
   * The operator sets a new password for the account and every session of it ends.
   *
   * `svc user reset-password` sends an OPAQUE registration record it made itself (against
   * `resetRegistrationResponse`), so the account signs in with the web page's button and with
   * the direct transport alike. A bare `password` (an older CLI, a script) is stored as an
   * Argon2id hash, which the account's next direct sign-in upgrades to OPAQUE
   * (accounts/methods/password.ts). Two-factor stays as it was.
   */
  async resetPassword(ref: string, input: string | NewPassword): Promise<UserChange> {
    const found = await findUserByRef(this.deps.pool, ref);
    // Hashed or checked before the transaction: the work is not done holding the row lock.
    const password = await passwordSecret(typeof input === 'string' ? { password: input } : input, found.username);
    const change = await withTransaction(this.deps.pool, async (db) => {
      const target = await lockUser(db, found.id);
      await setPassword(db, target.id, password.kind, password.secret);
      const revokedSessions = await this.deps.sessions.revokeAll(db, target.id, OPERATOR_RESET_REVOKE_REASON);
      return { user: target, changed: true, revokedSessions };
    });
    this.deps.sessions.announce({ scope: 'user', userId: change.user.id, reason: 'operator_reset' });
    return change;
  }

  /**
   * Bootstraps an administrator from the terminal: an active `root` with an OPAQUE record made
   * by the CLI (or, from a bare `password`, an Argon2id hash upgraded at its first sign-in).
   * Refused when any root exists unless `allowAdditional`, so a script run twice, or a
   * mistyped username, does not silently add a second all-powerful account.
   */
  async createRoot(input: { username: string } & NewPassword, options: { allowAdditional?: boolean } = {}): Promise<User> {
    const username = checkNewRoot(input);
    const password = await passwordSecret(input, username.name);
    return withTransaction(this.deps.pool, async (db) => {
      await lockServiceRoles(db);
      await db.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [advisoryLockNamespaces.username, username.key]);
      const roots = await db.query<{ username: string }>("SELECT username FROM users WHERE role = 'root' ORDER BY username_key LIMIT 4");
      if (roots.rows.length > 0 && !options.allowAdditional) {
        const names = roots.rows.slice(0, 3).map((row) => row.username).join(', ') + (roots.rows.length > 3 ? ', ...' : '');
        throw new AppError('conflict', `a root already exists (${names}); creating another needs allowAdditional ("svc user create-root --allow-additional")`, [
          { key: 'allowAdditional', message: 'is required while a root exists' },
        ]);
      }
      // A signup under review holds its username until decided.
      const pending = await db.query("SELECT 1 FROM registration_reviews WHERE username_key = $1 AND state = 'pending'", [username.key]);
      if ((pending.rowCount ?? 0) > 0) throw new AppError('conflict', `username "${username.name}" is taken by a signup under review`, [{ key: 'username', message: 'is taken' }]);
      const user = await insertUser(db, { username: username.name, usernameKey: username.key, displayName: username.name, role: 'root' });
      await setPassword(db, user.id, password.kind, password.secret);
      return user;
    });
  }

  private async changeState(actor: AdminActor, ref: string, state: UserState): Promise<UserChange> {
    const change = await withTransaction(this.deps.pool, async (db): Promise<UserChange> => {
      await lockServiceRoles(db);
      const acting = await actingRole(db, actor);
      const target = await lockUser(db, ref);
      checkStateChange(acting, actor, target);
      if (target.state === state) {
        // Banning again also ends a session a sign-in racing the first ban may have opened.
        const revokedSessions = state === 'banned' ? await this.deps.sessions.revokeAll(db, target.id, BAN_REVOKE_REASON) : 0;
        return { user: target, changed: false, revokedSessions };
      }
      await keepAnActiveRoot(db, target, { role: target.role, state });
      const user = await updateUser(db, target.id, 'state', state);
      const revokedSessions = state === 'banned' ? await this.deps.sessions.revokeAll(db, target.id, BAN_REVOKE_REASON) : 0;
      return { user, changed: true, revokedSessions };
    });
    if (state === 'banned') this.deps.sessions.announce({ scope: 'user', userId: change.user.id, reason: 'banned' });
    return change;
  }
}

/** Both fields checked at once, so one answer names every problem. */
function checkNewRoot(input: { username: string } & NewPassword): Username {
  const issues: FieldIssue[] = [];
  const attempt = <T>(fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (err) {
      if (!isAppError(err) || err.code !== 'invalid_argument') throw err;
      issues.push(...err.issues);
      return undefined;
    }
  };
  const username = attempt(() => parseUsername(typeof input.username === 'string' ? input.username : ''));
  if (input.registrationRecord !== undefined) {
    if (input.password !== undefined) issues.push({ key: 'password', message: 'give password or registrationRecord, not both' });
  } else if (typeof input.password !== 'string') issues.push({ key: 'password', message: 'is required (or registrationRecord, for OPAQUE)' });
  else attempt(() => checkPassword(input.password!, username?.name ?? input.username));
  if (issues.length > 0 || !username) throw AppError.invalid(issues);
  return username;
}

async function lockServiceRoles(db: Queryable): Promise<void> {
  await db.query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryLocks.serviceRoles]);
}

/** The account named by `ref`, as it is now, its row locked until the transaction ends. */
async function lockUser(db: Queryable, ref: string): Promise<User> {
  const found = await findUserByRef(db, ref);
  const { rows } = await db.query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1 FOR UPDATE`, [found.id]);
  if (!rows[0]) throw new AppError('not_found', `no user "${ref}"`, [{ key: 'user', message: 'names no user' }]);
  return userFromRow(rows[0]);
}

async function updateUser(db: Queryable, id: string, column: 'role' | 'state', value: string): Promise<User> {
  const { rows } = await db.query<UserRow>(`UPDATE users SET ${column} = $2 WHERE id = $1 RETURNING ${USER_COLUMNS}`, [id, value]);
  return userFromRow(rows[0]!);
}
