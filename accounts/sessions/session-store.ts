import { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { withTransaction } from '../../postgres/index.js';
import type { Caller, ServiceRole } from '../model.js';
import { isUuid } from '../users.js';
import type { Revocation, RevocationPublisher, RevocationReason } from './revocation.js';

/**
 * Server-side sessions and their refresh tokens. A session is one sign-in on one device; each
 * refresh exchanges its token for a new one (rotation). A token that was already exchanged and
 * is presented again means two parties hold it, one of them a thief: the whole session (the
 * token family) is revoked, which signs both out.
 *
 * Except within a short grace window after the exchange (REUSE_GRACE_SECONDS): several tabs of
 * one browser share the refresh cookie and may refresh at the same instant, and a native client
 * may retry a refresh whose answer it lost. A token presented again within the window gets the
 * same new token as the first exchange did (while that one is unused), so every tab stays
 * signed in with one token family; after the window, reuse revokes as before. The new token
 * is not stored to be handed out twice: it is derived from the old one with a server key
 * (`successorOf`), so only SHA-256 hashes of tokens are ever kept, and nobody without the key
 * can compute it from a token they hold.
 *
 * Tokens are `<sessionId>.<32 random bytes>`; only their SHA-256 is stored.
 */
export interface SessionInfo {
  id: string;
  method: string;
  userAgent: string | null;
  ip: string | null;
  createdAt: Date;
  lastUsedAt: Date;
  expiresAt: Date;
}

export interface NewSession {
  userId?: string;
  guestName?: string;
  method: string;
  userAgent?: string;
  ip?: string;
}

export interface IssuedSession {
  sessionId: string;
  refreshToken: string;
  expiresAt: Date;
}

interface ResolveRow {
  revoked_at: Date | null;
  expires_at: Date;
  user_id: string | null;
  guest_name: string | null;
  state: string | null;
  role: ServiceRole | null;
  username: string | null;
  display_name: string | null;
}

/** How long after an exchange the same refresh token still gets the new one instead of revoking. */
export const REUSE_GRACE_SECONDS = 5;

export class SessionStore {
  constructor(
    private readonly pool: pg.Pool,
    private readonly ttlMs: number,
    /** HMAC key of `successorOf`. */
    private readonly successorKey: Buffer,
    /** Tells every gateway which sessions ended; without it (tests of the store alone) nothing is announced. */
    private readonly revocations?: RevocationPublisher,
  ) {}

  async create(session: NewSession): Promise<IssuedSession> {
    const sessionId = randomUUID();
    const refreshToken = newToken(sessionId, randomBytes(32).toString('base64url'));
    const expiresAt = new Date(Date.now() + this.ttlMs);
    // One statement (one round trip, one commit) on the sign-in hot path; it also records the
    // sign-in time. Its commit does not wait for the WAL flush (synchronous_commit off, for this
    // transaction only): a crash can lose the last instants of new sessions, whose users then sign
    // in again, but never leaves a half-written one; sign-in stops waiting on fsync.
    await this.pool.query(
      `WITH relaxed AS (
         SELECT set_config('synchronous_commit', 'off', true)
       ), session AS (
         INSERT INTO sessions (id, user_id, guest_name, method, user_agent, ip, expires_at)
         SELECT $1, $2, $3, $4, $5, $6, $7 FROM relaxed RETURNING id
       ), token AS (
         INSERT INTO refresh_tokens (token_hash, session_id) SELECT $8, id FROM session
       )
       UPDATE users SET last_login_at = now() WHERE id = $2`,
      [sessionId, session.userId ?? null, session.guestName ?? null, session.method, clip(session.userAgent, 512), clip(session.ip, 64), expiresAt, hashToken(refreshToken)],
    );
    return { sessionId, refreshToken, expiresAt };
  }

  /**
   * Exchanges a refresh token for a new one. Unknown, expired or revoked: `unauthenticated`.
   * Already exchanged within the grace window, its successor still unused: that successor
   * again. Already exchanged otherwise: the session is revoked (`refresh token reuse`) and
   * `unauthenticated`.
   */
  async rotate(refreshToken: string): Promise<IssuedSession & { userId: string | null; guestName: string | null }> {
    const sessionId = refreshToken.split('.')[0] ?? '';
    if (!isUuid(sessionId)) throw invalidRefresh();
    const outcome = await withTransaction(this.pool, async (client) => {
      // Concurrent exchanges of one token queue on these row locks; the later ones then read the
      // row as the first left it (rotated), which is what the grace window is for.
      const { rows } = await client.query<{ rotated_at: Date | null; in_grace: boolean; revoked_at: Date | null; expires_at: Date; user_id: string | null; guest_name: string | null; state: string | null }>(
        `SELECT t.rotated_at, t.rotated_at > now() - make_interval(secs => $3) AS in_grace, s.revoked_at, s.expires_at, s.user_id, s.guest_name, u.state
           FROM refresh_tokens t JOIN sessions s ON s.id = t.session_id LEFT JOIN users u ON u.id = s.user_id
          WHERE t.token_hash = $1 AND t.session_id = $2
          FOR UPDATE OF t, s`,
        [hashToken(refreshToken), sessionId, REUSE_GRACE_SECONDS],
      );
      const row = rows[0];
      if (!row || row.revoked_at !== null || row.expires_at.getTime() <= Date.now()) return { kind: 'invalid' as const };
      if (row.user_id !== null && row.state !== 'active') return { kind: 'invalid' as const };
      const next = this.successorOf(refreshToken, sessionId);
      if (row.rotated_at !== null) {
        if (row.in_grace) {
          const { rowCount } = await client.query('SELECT 1 FROM refresh_tokens WHERE token_hash = $1 AND session_id = $2 AND rotated_at IS NULL', [hashToken(next), sessionId]);
          if (rowCount === 1) {
            return { kind: 'ok' as const, session: { sessionId, refreshToken: next, expiresAt: row.expires_at, userId: row.user_id, guestName: row.guest_name } };
          }
        }
        await client.query("UPDATE sessions SET revoked_at = now(), revoke_reason = 'refresh token reuse' WHERE id = $1", [sessionId]);
        return { kind: 'reused' as const };
      }
      const expiresAt = new Date(Date.now() + this.ttlMs);
      await client.query('UPDATE refresh_tokens SET rotated_at = now() WHERE token_hash = $1', [hashToken(refreshToken)]);
      await client.query('INSERT INTO refresh_tokens (token_hash, session_id) VALUES ($1, $2)', [hashToken(next), sessionId]);
      await client.query('UPDATE sessions SET last_used_at = now(), expires_at = $2 WHERE id = $1', [sessionId, expiresAt]);
      return { kind: 'ok' as const, session: { sessionId, refreshToken: next, expiresAt, userId: row.user_id, guestName: row.guest_name } };
    });
    // The revocation above must commit, so reuse is reported (and announced) after the transaction.
    if (outcome.kind === 'reused') this.announce({ scope: 'session', sessionId, reason: 'refresh_reuse' });
    if (outcome.kind === 'reused') throw new AppError('unauthenticated', 'refresh token was already used; the session is revoked, sign in again');
    if (outcome.kind === 'invalid') throw invalidRefresh();
    return outcome.session;
  }

  /**
   * The caller behind a verified access token, read fresh on every request so that logout,
   * revocation and bans apply at once. Undefined when the session or user is no longer valid.
   */
  async resolve(sessionId: string): Promise<Caller | undefined> {
    if (!isUuid(sessionId)) return undefined;
    const { rows } = await this.pool.query<ResolveRow>(
      `SELECT s.revoked_at, s.expires_at, s.user_id, s.guest_name, u.state, u.role, u.username, u.display_name
         FROM sessions s LEFT JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
      [sessionId],
    );
    const row = rows[0];
    if (!row || row.revoked_at !== null || row.expires_at.getTime() <= Date.now()) return undefined;
    if (row.user_id === null) return { kind: 'guest', guestId: `guest:${sessionId}`, sessionId, displayName: row.guest_name ?? 'guest' };
    if (row.state !== 'active' || !row.role || !row.username) return undefined;
    return { kind: 'user', userId: row.user_id, sessionId, username: row.username, displayName: row.display_name ?? row.username, role: row.role };
  }

  /**
   * Which of `sessionIds` `resolve` would still answer for, in one query: a gateway holding
   * thousands of connections reads them all again at each sweep (gateways/session-connections.ts).
   */
  async liveAmong(sessionIds: readonly string[]): Promise<Set<string>> {
    const ids = sessionIds.filter(isUuid);
    if (ids.length === 0) return new Set();
    const { rows } = await this.pool.query<{ id: string }>(
      `SELECT s.id FROM sessions s LEFT JOIN users u ON u.id = s.user_id
        WHERE s.id = ANY($1::uuid[]) AND s.revoked_at IS NULL AND s.expires_at > $2
          AND (s.user_id IS NULL OR (u.state = 'active' AND u.role IS NOT NULL AND u.username IS NOT NULL))`,
      [ids, new Date()],
    );
    return new Set(rows.map((row) => row.id));
  }

  async list(userId: string): Promise<SessionInfo[]> {
    const { rows } = await this.pool.query<{ id: string; method: string; user_agent: string | null; ip: string | null; created_at: Date; last_used_at: Date; expires_at: Date }>(
      `SELECT id, method, user_agent, ip, created_at, last_used_at, expires_at FROM sessions
        WHERE user_id = $1 AND revoked_at IS NULL AND expires_at > now() ORDER BY last_used_at DESC`,
      [userId],
    );
    return rows.map((row) => ({
      id: row.id,
      method: row.method,
      userAgent: row.user_agent,
      ip: row.ip,
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      expiresAt: row.expires_at,
    }));
  }

  /**
   * Revokes one session; with `userId`, only if it is that user's. Returns whether one was live.
   * `reason` is stored, `ended` what its open connections are told (announced after the commit).
   */
  async revoke(sessionId: string, reason: string, ended: RevocationReason, userId?: string): Promise<boolean> {
    if (!isUuid(sessionId)) return false;
    const { rowCount } = await this.pool.query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $2
        WHERE id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR user_id = $3)`,
      [sessionId, reason, userId ?? null],
    );
    const revoked = (rowCount ?? 0) > 0;
    if (revoked) this.announce({ scope: 'session', sessionId, reason: ended });
    return revoked;
  }

  /**
   * Tells every gateway to end the connections of sessions that were revoked. Call it once the
   * revocation has committed: a gateway that hears it earlier would find the session still live.
   */
  announce(revocation: Revocation): void {
    this.revocations?.publish(revocation);
  }

  /**
   * Revokes every live session of a user, except `keep` (the caller's own, after a password
   * change), in the caller's transaction; `announce` it after the commit.
   */
  async revokeAll(db: Pick<pg.Pool, 'query'>, userId: string, reason: string, keep?: string): Promise<number> {
    const { rowCount } = await db.query(
      `UPDATE sessions SET revoked_at = now(), revoke_reason = $2
        WHERE user_id = $1 AND revoked_at IS NULL AND ($3::uuid IS NULL OR id <> $3)`,
      [userId, reason, keep ?? null],
    );
    return rowCount ?? 0;
  }

  /** Drops sessions that ended more than a day ago (a worker job). */
  async purgeEnded(): Promise<number> {
    const { rowCount } = await this.pool.query(
      `DELETE FROM sessions WHERE expires_at < now() - interval '1 day' OR revoked_at < now() - interval '1 day'`,
    );
    return rowCount ?? 0;
  }

  /** The token an exchange of `token` hands out: unpredictable without the server key, the same every time. */
  private successorOf(token: string, sessionId: string): string {
    return newToken(sessionId, createHmac('sha256', this.successorKey).update(token).digest('base64url'));
  }
}

function newToken(sessionId: string, secret: string): string {
  return `${sessionId}.${secret}`;
}

function hashToken(token: string): Buffer {
  return createHash('sha256').update(token).digest();
}

function invalidRefresh(): AppError {
  return new AppError('unauthenticated', 'refresh token is not valid; sign in again');
}

function clip(value: string | undefined, max: number): string | null {
  return value === undefined || value === '' ? null : value.slice(0, max);
}
