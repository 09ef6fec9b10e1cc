import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import type { SessionStore } from '../sessions/session-store.js';

/**
 * The last step of closing an account (docs/2026-11-26-profiles-and-accounts.md), once its rooms
 * were left, handed over or deleted: one transaction that anonymises the chat messages others
 * still read, retires the username and deletes the user row. Deleting the row deletes by
 * cascade everything that is only the user's: password, passkeys, OAuth2 bindings, TOTP and
 * recovery codes, sessions and refresh tokens, notifications, email codes, the avatar and
 * personal media libraries. The sessions are announced ended after the commit, so open
 * sockets close at once.
 */
export const FORMER_MEMBER = { userId: 'former-member', name: 'Former member' } as const;
export const CLOSED_REVOKE_REASON = 'account_closed';

export interface ClosedAccount {
  revokedSessions: number;
  anonymisedMessages: number;
}

export async function closeAccountRecords(pool: pg.Pool, sessions: SessionStore, userId: string): Promise<ClosedAccount> {
  const client = await pool.connect();
  let closed: ClosedAccount;
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ username_key: string }>('SELECT username_key FROM users WHERE id = $1 FOR UPDATE', [userId]);
    const user = rows[0];
    if (!user) throw new AppError('unauthenticated', 'the account no longer exists');
    const revokedSessions = await sessions.revokeAll(client, userId, CLOSED_REVOKE_REASON);
    // Chat is never held by the room actors (actors/room/chat/chat-store.ts), so rows change here.
    const chat = await client.query('UPDATE chat_messages SET user_id = $2, name = $3 WHERE user_id = $1', [userId, FORMER_MEMBER.userId, FORMER_MEMBER.name]);
    await client.query('INSERT INTO retired_usernames (username_key) VALUES ($1) ON CONFLICT DO NOTHING', [user.username_key]);
    await client.query('DELETE FROM users WHERE id = $1', [userId]);
    await client.query('COMMIT');
    closed = { revokedSessions, anonymisedMessages: chat.rowCount ?? 0 };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  sessions.announce({ scope: 'user', userId, reason: 'revoked' });
  return closed;
}
