import { Connection as TemporalConnection } from '@temporalio/client';
import test from 'ava';
import { Redis } from 'ioredis';
import { connect as connectNats, type NatsConnection } from 'nats';
import type pg from 'pg';
import type { ReadinessBody } from '../../../gateways/http/health.js';
import { createDependencyProbe } from '../../../server/dependency-probe.js';
import { migrate, pendingMigrations } from '../../../postgres/migrate.js';
import { migrations } from '../../../postgres/migrations/index.js';
import { createPool } from '../../../postgres/pool.js';
import { startPrivatePostgres, testStack, type PrivatePostgres } from '../../harness/stack.js';
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
/** The metrics listener (`metrics.listen`), where the detail is. */
let metricsUrl: string;

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
  metricsUrl = await harness.listenMetrics();
});

test.after.always(async () => {
  await harness?.close();
  await Promise.allSettled([pool?.end(), redis?.quit(), nats?.close(), temporal?.close()]);
  await privatePg?.destroy();
});

async function ready(): Promise<{ status: number; cacheControl: string | null; body: ReadinessBody }> {
  const res = await fetch(`${metricsUrl}/health/ready`);
  return { status: res.status, cacheControl: res.headers.get('cache-control'), body: (await res.json()) as ReadinessBody };
}

/** The public port's readiness: for load balancers, with nothing about the dependencies. */
async function publicReady(): Promise<{ status: number; text: string }> {
  const res = await fetch(`${baseUrl}/health/ready`);
  return { status: res.status, text: await res.text() };
}

test.serial('an unmigrated database makes the replica not ready, naming the pending migrations', async (t) => {
  const { status, body } = await ready();
  t.is(status, 503);
  t.is(body.status, 'not_ready');
  const expected = `migrations: pending: ${migrations.map((m) => m.id).join(', ')}`;
  t.is(body.status === 'not_ready' ? body.firstError : undefined, expected);
  t.like(body.dependencies.find((d) => d.name === 'postgres'), { ok: true });

  const plain = await publicReady();
  t.is(plain.status, 503);
  t.like(JSON.parse(plain.text), { status: 503, code: 'unavailable', message: 'not ready' });
  t.false(plain.text.includes('migrations'), plain.text);
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
  const plain = await publicReady();
  t.is(plain.status, 200);
  t.deepEqual(JSON.parse(plain.text), { status: 'ready' });
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

  // The public port says only that the replica is not ready: no dependency, host or error text.
  const plain = await publicReady();
  t.is(plain.status, 503);
  const body = JSON.parse(plain.text) as Record<string, unknown>;
  t.deepEqual(Object.keys(body).sort(), ['code', 'message', 'requestId', 'status']);
  t.like(body, { status: 503, code: 'unavailable', message: 'not ready' });
  for (const detail of ['postgres', 'dependencies', String(postgres?.error)]) t.false(plain.text.includes(detail), `${detail} in ${plain.text}`);

  await privatePg.start();
  // The pool reconnects on its next query; readiness follows without a restart of the app.
  const up = await waitFor('/health/ready to be 200 again', async () => {
    const answer = await ready();
    return answer.status === 200 ? answer : undefined;
  });
  t.is(up.body.status, 'ready');
  t.is((await publicReady()).status, 200);
});
