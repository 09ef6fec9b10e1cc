import { Connection as TemporalConnection } from '@temporalio/client';
import test from 'ava';
import { Redis } from 'ioredis';
import { connect as connectNats, type NatsConnection } from 'nats';
import type pg from 'pg';
import type { ReadinessBody } from '../../gateways/http/health.js';
import { createDependencyProbe } from '../../server/dependency-probe.js';
import { migrate, pendingMigrations } from '../../store/migrate.js';
import { migrations } from '../../store/migrations/index.js';
import { createPool } from '../../store/pool.js';
import { startPrivatePostgres, testStack, type PrivatePostgres } from '../harness/stack.js';
import { buildApp, capturingLogger, waitFor, type TestApp } from './fixtures.js';

// These tests walk one PostgreSQL cluster through unmigrated -> ready -> stopped -> started,
// so they run in order.

let privatePg: PrivatePostgres;
let pool: pg.Pool;
let redis: Redis;
let nats: NatsConnection;
let temporal: TemporalConnection;
let harness: TestApp;
let baseUrl: string;

test.before(async () => {
  const stack = testStack();
  privatePg = await startPrivatePostgres();
  const { logger } = capturingLogger();
  pool = createPool({ url: privatePg.url, max: 4, logger });
  redis = new Redis(stack.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  await redis.connect();
  nats = await connectNats({ servers: stack.natsUrl });
  temporal = await TemporalConnection.connect({ address: stack.temporalAddress });

  harness = buildApp({
    readiness: createDependencyProbe({ pool, redis, nats, temporal, pendingMigrations: () => pendingMigrations(pool) }),
  });
  baseUrl = await harness.listen();
});

test.after.always(async () => {
  await harness?.close();
  await Promise.allSettled([pool?.end(), redis?.quit(), nats?.close(), temporal?.close()]);
  await privatePg?.destroy();
});

async function ready(): Promise<{ status: number; cacheControl: string | null; body: ReadinessBody }> {
  const res = await fetch(`${baseUrl}/health/ready`);
  return { status: res.status, cacheControl: res.headers.get('cache-control'), body: (await res.json()) as ReadinessBody };
}

test.serial('an unmigrated database makes the replica not ready, naming the pending migrations', async (t) => {
  const { status, body } = await ready();
  t.is(status, 503);
  t.is(body.status, 'not_ready');
  const expected = `migrations: pending: ${migrations.map((m) => m.id).join(', ')}`;
  t.is(body.status === 'not_ready' ? body.firstError : undefined, expected);
  t.like(body.dependencies.find((d) => d.name === 'postgres'), { ok: true });
});

test.serial('with every dependency up and the schema migrated, /health/ready is 200 and uncached', async (t) => {
  const { logger } = capturingLogger();
  await migrate(pool, logger);

  const { status, cacheControl, body } = await ready();
  t.is(status, 200, JSON.stringify(body));
  t.is(body.status, 'ready');
  t.is(cacheControl, 'no-store');
  t.deepEqual(
    body.dependencies.map((d) => d.name),
    ['postgres', 'migrations', 'redis', 'nats', 'temporal'],
  );
  for (const dependency of body.dependencies) {
    t.true(dependency.ok, dependency.name);
    t.is(typeof dependency.latencyMs, 'number', dependency.name);
    t.is(dependency.error, undefined, dependency.name);
  }
});

test.serial('stopping PostgreSQL makes /health/ready 503 naming postgres and its error; starting it recovers', async (t) => {
  await privatePg.stop();

  const down = await ready();
  t.is(down.status, 503);
  t.is(down.body.status, 'not_ready');
  const postgres = down.body.dependencies.find((d) => d.name === 'postgres');
  t.false(postgres?.ok);
  t.truthy(postgres?.error);
  t.is(down.body.status === 'not_ready' ? down.body.firstError : undefined, `postgres: ${postgres?.error}`);
  t.like(down.body.dependencies.find((d) => d.name === 'migrations'), { ok: false, error: 'unknown (postgres is not ready)' });
  for (const name of ['redis', 'nats', 'temporal']) {
    t.like(down.body.dependencies.find((d) => d.name === name), { ok: true }, name);
  }
  t.log('postgres error while stopped:', postgres?.error);

  await privatePg.start();
  // The pool reconnects on its next query; readiness follows without a restart of the app.
  const up = await waitFor('/health/ready to be 200 again', async () => {
    const answer = await ready();
    return answer.status === 200 ? answer : undefined;
  });
  t.is(up.body.status, 'ready');
});
