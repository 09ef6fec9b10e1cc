import test from 'ava';
import type pg from 'pg';
import { AppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { migrate, migrationStatus, pendingMigrations } from '../../postgres/migrate.js';
import { migrations } from '../../postgres/migrations/index.js';
import { createPool } from '../../postgres/pool.js';
import { freshDatabase } from '../harness/stack.js';

const logger = createLogger({ level: 'silent' });
const allIds = migrations.map((m) => m.id);

async function withPool<T>(url: string, run: (pool: pg.Pool) => Promise<T>): Promise<T> {
  const pool = createPool({ url, max: 2, applicationName: 'svc-test-migrate' });
  try {
    return await run(pool);
  } finally {
    await pool.end();
  }
}

async function tableExists(pool: pg.Pool, name: string): Promise<boolean> {
  const { rows } = await pool.query<{ present: boolean }>('SELECT to_regclass($1) IS NOT NULL AS present', [name]);
  return rows[0]?.present === true;
}

test('applies every migration once and a second run applies nothing', async (t) => {
  const url = await freshDatabase('migrate_once');
  await withPool(url, async (pool) => {
    t.deepEqual(await pendingMigrations(pool), allIds, 'an empty database has everything pending');

    const first = await migrate(pool, logger);
    t.deepEqual(first.applied, allIds);
    t.true(await tableExists(pool, 'settings'));
    t.true(await tableExists(pool, 'settings_history'));
    t.deepEqual(await pendingMigrations(pool), []);

    const second = await migrate(pool, logger);
    t.deepEqual(second.applied, []);
    const { rows } = await pool.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    t.deepEqual(
      rows.map((row) => row.id),
      allIds,
    );
  });
});

test('replicas migrating at the same moment apply each migration exactly once', async (t) => {
  const url = await freshDatabase('migrate_concurrent');
  const pools = Array.from({ length: 4 }, (_, i) => createPool({ url, max: 2, applicationName: `svc-test-replica-${i}` }));
  try {
    const results = await Promise.all(pools.map((pool) => migrate(pool, logger)));
    const appliedEverywhere = results.flatMap((result) => result.applied).sort();
    t.deepEqual(appliedEverywhere, [...allIds].sort(), 'every id appears in exactly one result');
    t.is(results.filter((result) => result.applied.length > 0).length, 1, 'one replica did the work');

    const [first] = pools;
    const status = await migrationStatus(first as pg.Pool);
    t.deepEqual(status, { applied: allIds, pending: [] });
  } finally {
    await Promise.all(pools.map((pool) => pool.end()));
  }
});

test('refuses a database migrated by a newer release', async (t) => {
  const url = await freshDatabase('migrate_newer');
  await withPool(url, async (pool) => {
    await migrate(pool, logger);
    await pool.query("INSERT INTO schema_migrations (id) VALUES ('9999_from_a_newer_release')");

    const refused = await t.throwsAsync(migrate(pool, logger), { instanceOf: AppError });
    t.is(refused?.code, 'conflict');
    t.regex(refused?.message ?? '', /9999_from_a_newer_release/);
    t.regex(refused?.message ?? '', /newer release/);
    await t.throwsAsync(pendingMigrations(pool), { message: /9999_from_a_newer_release/ });

    // The refusal released the lock: another run gets as far as the same check, not stuck.
    await t.throwsAsync(migrate(pool, logger), { message: /9999_from_a_newer_release/ });
  });
});
