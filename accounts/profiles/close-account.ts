import type pg from 'pg';
import { AppError } from '../../errors/index.js';
import { FORMER_MEMBER, FORMER_MEMBER_ID_PREFIX } from '../../contracts/room/former-member.js';
import type { SessionStore } from '../sessions/session-store.js';

/**
 * The last step of closing an account (docs/2026-11-26-profiles-and-accounts.md), once its rooms
 * were left, handed over or deleted and told to forget it (member.forget): one transaction over
 * the records no room actor holds. It anonymises the chat messages and danmaku others still
 * read (and the mention notifications that name their author), keeps the account's reactions
 * counting under new ids, takes its id out of others' mentions, deletes its stream keys and its
 * signup review, retires the username and deletes the user row. Deleting the row deletes by
 * cascade everything that is only the user's: password, passkeys, OAuth2 bindings, TOTP and
 * recovery codes, sessions and refresh tokens, notifications, email codes, the avatar and
 * personal media libraries. The sessions are announced ended after the commit, so open
 * sockets close at once.
 */
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
    const chat = await forgetOutsideRooms(client, userId);
    await client.query('INSERT INTO retired_usernames (username_key) VALUES ($1) ON CONFLICT DO NOTHING', [user.username_key]);
    await client.query('DELETE FROM users WHERE id = $1', [userId]);
    await client.query('COMMIT');
    closed = { revokedSessions, anonymisedMessages: chat };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
  sessions.announce({ scope: 'user', userId, reason: 'revoked' });
  return closed;
}

/**
 * Chat, reactions, danmaku, notifications and stream keys are never held by the room actors
 * (each is written and read straight from PostgreSQL), so their rows change here. Returns the
 * number of chat messages anonymised.
 */
async function forgetOutsideRooms(client: pg.PoolClient, userId: string): Promise<number> {
  const former = [FORMER_MEMBER.userId, FORMER_MEMBER.name];
  const chat = await client.query<{ id: string }>('UPDATE chat_messages SET user_id = $2, name = $3 WHERE user_id = $1 RETURNING id::text', [userId, ...former]);
  // The inbox of those the account mentioned names it as its messages did.
  await client.query(
    `UPDATE notifications SET payload = jsonb_set(payload, '{by}', to_jsonb($2::text))
      WHERE payload->>'kind' = 'chat.mention' AND payload->>'messageId' = ANY($1::text[])`,
    [chat.rows.map((row) => row.id), FORMER_MEMBER.name],
  );
  await client.query('UPDATE chat_messages SET mentions = array_remove(mentions, $1) WHERE $1 = ANY(mentions)', [userId]);
  // A reaction still counts; a new id each, since two former members' reactions are two.
  await client.query('UPDATE chat_reactions SET user_id = $2::text || gen_random_uuid()::text WHERE user_id = $1', [userId, FORMER_MEMBER_ID_PREFIX]);
  await client.query('UPDATE danmaku SET user_id = $2, name = $3 WHERE user_id = $1', [userId, ...former]);
  // A stream key is a credential to publish as this account.
  await client.query('DELETE FROM live_stream_keys WHERE created_by = $1', [userId]);
  // The approved signup it was created from: its username, and the account's id.
  await client.query('DELETE FROM registration_reviews WHERE user_id = $1::uuid', [userId]);
  return chat.rowCount ?? 0;
}
