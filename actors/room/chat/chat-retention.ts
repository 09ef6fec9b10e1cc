/**
 * Chat retention, run periodically by every replica (the lead schedules it). Safe to run
 * on many replicas at once: age deletion claims rows with `FOR UPDATE SKIP LOCKED`, so
 * concurrent runs delete disjoint batches; per-room caps take a per-room advisory try-lock,
 * so a room is trimmed by one run at a time and the others skip it; every delete is
 * idempotent, so a run that comes second finds nothing left to do.
 *
 * Rules, applied in this order:
 *   1. nothing older than `chat.messageRetentionDays`, pinned or not (an age limit is a
 *      promise about how long anything said is kept);
 *   2. at most `chat.maxPinnedMessagesPerRoom` pinned messages: the oldest pins beyond it are
 *      unpinned (not deleted), and from then on count as ordinary messages;
 *   3. at most `chat.maxMessagesPerRoom` unpinned messages, the newest (0 = no cap).
 *
 * The job changes rows behind the room actor, which holds no chat in memory; clients see the
 * result on their next history or pins read (no events are published for it).
 */
import type pg from 'pg';
import type { Logger } from '../../../observability/index.js';
import type { SettingsReader } from '../../../settings/index.js';
import { advisoryLockNamespaces } from '../../../postgres/index.js';
import { withLongStatements } from '../../../postgres/index.js';

/** Rows per age-deletion statement: bounds lock time and WAL per transaction. */
const AGE_BATCH = 5000;
/**
 * How long one retention statement may run, instead of the pool's few seconds: finding the
 * rooms over a cap scans the whole chat table, and a batch of deletions can wait on rows a
 * room is writing. Each statement runs in its own transaction with this bound (SET LOCAL).
 */
export const RETENTION_STATEMENT_TIMEOUT_MS = 60_000;

export interface ChatRetentionResult {
  /** Messages deleted by this run (by age and by count). */
  deleted: number;
  /** Pins removed because a room had more than the pin cap. */
  unpinned: number;
}

async function deleteByAge(pool: pg.Pool, days: number): Promise<number> {
  let deleted = 0;
  for (;;) {
    const { rowCount } = await withLongStatements(pool, RETENTION_STATEMENT_TIMEOUT_MS, (db) =>
      db.query(
        `DELETE FROM chat_messages WHERE id IN (
           SELECT id FROM chat_messages WHERE created_at < now() - make_interval(days => $1)
           ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED)`,
        [days, AGE_BATCH],
      ),
    );
    deleted += rowCount ?? 0;
    if ((rowCount ?? 0) < AGE_BATCH) return deleted;
  }
}

/** Rooms with more than `limit` messages of the given kind. */
async function roomsOver(pool: pg.Pool, pinned: boolean, limit: number): Promise<string[]> {
  const { rows } = await withLongStatements(pool, RETENTION_STATEMENT_TIMEOUT_MS, (db) =>
    db.query<{ room_id: string }>('SELECT room_id FROM chat_messages WHERE pinned = $1 GROUP BY room_id HAVING count(*) > $2', [
      pinned,
      limit,
    ]),
  );
  return rows.map((row) => row.room_id);
}

/**
 * Runs `statement` for one room under the room's retention try-lock; returns its row count,
 * or 0 when another run holds the room right now.
 */
async function trimRoom(pool: pg.Pool, roomId: string, statement: string, keep: number): Promise<number> {
  return withLongStatements(pool, RETENTION_STATEMENT_TIMEOUT_MS, async (db) => {
    const { rows } = await db.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_xact_lock($1::int, hashtext($2)) AS locked',
      [advisoryLockNamespaces.chatRetention, roomId],
    );
    // Another run holds the room; committing nothing is the same as rolling back.
    if (!rows[0]?.locked) return 0;
    const { rowCount } = await db.query(statement, [roomId, keep]);
    return rowCount ?? 0;
  });
}

// "Beyond the newest $2" is "older than the $2-th newest"; with $2 = 0 there is no such row
// and every matching row goes.
const UNPIN_EXCESS = `
  UPDATE chat_messages SET pinned = false
  WHERE room_id = $1 AND pinned AND ($2::int = 0 OR id < (
    SELECT id FROM chat_messages WHERE room_id = $1 AND pinned ORDER BY id DESC OFFSET $2::int - 1 LIMIT 1))`;

const DELETE_EXCESS = `
  DELETE FROM chat_messages
  WHERE room_id = $1 AND NOT pinned AND id < (
    SELECT id FROM chat_messages WHERE room_id = $1 AND NOT pinned ORDER BY id DESC OFFSET $2::int - 1 LIMIT 1)`;

export async function runChatRetention(pool: pg.Pool, settings: SettingsReader, logger: Logger): Promise<ChatRetentionResult> {
  const days = settings.get('chat.messageRetentionDays');
  const maxPinned = settings.get('chat.maxPinnedMessagesPerRoom');
  const maxMessages = settings.get('chat.maxMessagesPerRoom');

  const byAge = await deleteByAge(pool, days);
  let unpinned = 0;
  for (const roomId of await roomsOver(pool, true, maxPinned)) {
    unpinned += await trimRoom(pool, roomId, UNPIN_EXCESS, maxPinned);
  }
  let byCount = 0;
  if (maxMessages > 0) {
    for (const roomId of await roomsOver(pool, false, maxMessages)) {
      byCount += await trimRoom(pool, roomId, DELETE_EXCESS, maxMessages);
    }
  }
  const result = { deleted: byAge + byCount, unpinned };
  if (result.deleted > 0 || unpinned > 0) {
    logger.info({ deletedByAge: byAge, deletedByCount: byCount, unpinned, days, maxMessages, maxPinned }, 'chat retention applied');
  }
  return result;
}
