import type pg from 'pg';
import { AppError } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { advisoryLocks } from './advisory-locks.js';
import { migrations as knownMigrations, type Migration } from './migrations/index.js';
import { boundedQuery } from './pool.js';

/**
 * How long one migration statement, and the wait for another replica's migrations, may take
 * (server and client side), instead of the pool's few seconds: a migration may rewrite or
 * index a large table. Longer ones should be run by hand (`svc migrate`) before a rollout.
 */
export const MIGRATION_STATEMENT_TIMEOUT_MS = 30 * 60_000;

export interface MigrationStatus {
  /** Ids recorded in `schema_migrations`, in the order they were applied. */
  applied: string[];
  /** Ids this binary ships that the database has not applied yet, in run order. */
  pending: string[];
}

type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

const CREATE_LEDGER = `
  CREATE TABLE IF NOT EXISTS schema_migrations (
    id text PRIMARY KEY,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`;

/**
 * Applies every pending migration, each in its own transaction together with its ledger row,
 * so a failure leaves the database at the last complete migration.
 *
 * Replicas often start together and each runs this. A session advisory lock held on one
 * dedicated connection serialises them: the first applies, the others wait on the lock and
 * then find nothing pending. A database that has a migration this binary does not know was
 * migrated by a newer release; running old code against it could corrupt data, so it is
 * refused before anything is changed.
 */
export async function migrate(pool: pg.Pool, logger: Logger): Promise<{ applied: string[] }> {
  const client = await pool.connect();
  const long = (text: string, values?: unknown[]) => boundedQuery(text, values, MIGRATION_STATEMENT_TIMEOUT_MS);
  try {
    // For this session only: it is discarded below, never returned to the pool with it.
    await client.query("SELECT set_config('statement_timeout', $1, false)", [String(MIGRATION_STATEMENT_TIMEOUT_MS)]);
    await client.query(long('SELECT pg_advisory_lock($1::bigint)', [advisoryLocks.migrations]));
    try {
      await client.query(long(CREATE_LEDGER));
      const { pending } = await readStatus(client, knownMigrations);
      const applied: string[] = [];
      for (const migration of knownMigrations.filter((m) => pending.includes(m.id))) {
        await applyOne(client, migration, logger, long);
        applied.push(migration.id);
      }
      if (applied.length === 0) logger.debug('database schema is up to date');
      return { applied };
    } finally {
      // Failing here leaves the session unusable; discarding it below ends the lock with it.
      await client.query('SELECT pg_advisory_unlock($1::bigint)', [advisoryLocks.migrations]).catch(() => undefined);
    }
  } finally {
    // Always destroyed: the session carries the longer statement timeout, and a client that
    // failed mid-migration may be inside an aborted transaction or hold the lock.
    client.release(true);
  }
}

/** What `migrate` would do, without doing it. Throws if the database is newer than the binary. */
export async function migrationStatus(db: Queryable): Promise<MigrationStatus> {
  const { rows } = await db.query<{ present: boolean }>(
    "SELECT to_regclass('schema_migrations') IS NOT NULL AS present",
  );
  if (!rows[0]?.present) return { applied: [], pending: knownMigrations.map((m) => m.id) };
  return readStatus(db, knownMigrations);
}

/** Ids still to apply; readiness reports the replica unready while this is non-empty. */
export async function pendingMigrations(pool: pg.Pool): Promise<string[]> {
  return (await migrationStatus(pool)).pending;
}

async function readStatus(db: Queryable, known: readonly Migration[]): Promise<MigrationStatus> {
  const { rows } = await db.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY applied_at, id');
  const applied = rows.map((row) => row.id);
  const knownIds = new Set(known.map((m) => m.id));
  const unknown = applied.filter((id) => !knownIds.has(id));
  if (unknown.length > 0) {
    throw new AppError(
      'conflict',
      `the database has migration(s) this binary does not know (${unknown.join(', ')}); ` +
        `it was migrated by a newer release of svc, run that release or newer`,
    );
  }
  const done = new Set(applied);
  return { applied, pending: known.filter((m) => !done.has(m.id)).map((m) => m.id) };
}

async function applyOne(
  client: pg.PoolClient,
  migration: Migration,
  logger: Logger,
  long: (text: string, values?: unknown[]) => pg.QueryConfig,
): Promise<void> {
  const started = performance.now();
  logger.info({ migration: migration.id }, 'applying migration');
  await client.query('BEGIN');
  try {
    await client.query(long(migration.up));
    await client.query('INSERT INTO schema_migrations (id) VALUES ($1)', [migration.id]);
    await client.query(long('COMMIT'));
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('internal', `migration ${migration.id} failed and was rolled back: ${message}`);
  }
  logger.info({ migration: migration.id, ms: Math.round(performance.now() - started) }, 'migration applied');
}
