/**
 * Exactly-once durable commands across activations.
 *
 * An activation remembers the replies of its recent commands in memory (recent-commands.ts),
 * but a command can outlive its activation: a slow write on a draining host, or on a host
 * that stalls past its lease and resumes, commits after the client's tries timed out, and the
 * retry reaches the next activation. So a command that changes durable state records its
 * reply, under its caller-scoped key (`meta.commandId`, command-key.ts; the `command_id`
 * column), in the same fenced transaction as its effect (`recordCommand`), and a new
 * activation loads the replies still inside their deadline before it takes any command
 * (`loadRecentCommands`, in the load transaction, which claims the fence first and so sees
 * every commit of the older activations). A retry then gets the
 * original answer instead of a second execution, or a `not_found` for what it already removed.
 *
 * Should a reply still be missing from memory (evicted early), the unique key refuses the
 * second record, the transaction rolls back, and the stored reply answers the retry
 * (`CommandAlreadyApplied`).
 */
import type pg from 'pg';
import type { Fence } from './fencing.js';

type Db = Pick<pg.PoolClient, 'query'>;

/** Kept past the envelope deadline, against clock skew between the client and PostgreSQL. */
const KEEP_PAST_DEADLINE_MS = 60_000;

export interface RecordedCommand {
  /** The caller-scoped key (`meta.commandId`), not the bare envelope id. */
  commandId: string;
  /** The envelope deadline (ms since epoch): no retry of the command is served after it. */
  deadline: number;
  /** The encoded `CommandReply` a retry gets. */
  reply: string;
}

/** The durable command was applied before, by this or an earlier activation: answer `reply`. */
export class CommandAlreadyApplied extends Error {
  constructor(readonly reply: string) {
    super('the command was applied before');
    this.name = 'CommandAlreadyApplied';
  }
}

export function isCommandAlreadyApplied(err: unknown): err is CommandAlreadyApplied {
  return err instanceof CommandAlreadyApplied;
}

/**
 * Records the reply of a durable command inside its fenced transaction. Throws
 * CommandAlreadyApplied (rolling the transaction back) when the id was recorded before.
 */
export async function recordCommand(db: Db, fence: Fence, command: RecordedCommand): Promise<void> {
  const inserted = await db.query(
    `INSERT INTO actor_commands (actor_type, actor_id, command_id, reply, expires_at)
     VALUES ($1, $2, $3, $4, to_timestamp($5 / 1000.0))
     ON CONFLICT DO NOTHING`,
    [fence.actorType, fence.actorId, command.commandId, command.reply, command.deadline + KEEP_PAST_DEADLINE_MS],
  );
  if (inserted.rowCount === 1) return;
  const { rows } = await db.query<{ reply: string }>(
    'SELECT reply FROM actor_commands WHERE actor_type = $1 AND actor_id = $2 AND command_id = $3',
    [fence.actorType, fence.actorId, command.commandId],
  );
  throw new CommandAlreadyApplied(rows[0]?.reply ?? command.reply);
}

/** The recorded replies of an actor that a retry may still ask for. Run it in the load transaction. */
export async function loadRecentCommands(db: Db, actorType: string, actorId: string): Promise<RecordedCommand[]> {
  const { rows } = await db.query<{ command_id: string; reply: string; expires_ms: string }>(
    `SELECT command_id, reply, (extract(epoch FROM expires_at) * 1000)::bigint AS expires_ms
     FROM actor_commands WHERE actor_type = $1 AND actor_id = $2 AND expires_at > now()`,
    [actorType, actorId],
  );
  return rows.map((row) => ({ commandId: row.command_id, reply: row.reply, deadline: Number(row.expires_ms) - KEEP_PAST_DEADLINE_MS }));
}

/** Deletes records nobody can ask for any more, in batches; returns how many. Safe to run anywhere, any number at once. */
export async function purgeExpiredCommands(pool: pg.Pool, batch = 5_000): Promise<number> {
  let total = 0;
  for (;;) {
    const { rowCount } = await pool.query(
      `DELETE FROM actor_commands WHERE ctid IN (
         SELECT ctid FROM actor_commands WHERE expires_at < now() LIMIT $1 FOR UPDATE SKIP LOCKED)`,
      [batch],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < batch) return total;
  }
}
