import { once } from 'node:events';
import { Connection as TemporalConnection } from '@temporalio/client';
import test from 'ava';
import { Redis } from 'ioredis';
import { connect as connectNats, type NatsConnection } from 'nats';
import pg from 'pg';
import { createDependencyProbe, describeError } from '../../../server/dependency-probe.js';
import type { DependencyState } from '../../../observability/readiness.js';
import { testStack } from '../../harness/stack.js';

// Only reads (SELECT 1) go to the shared cluster, so no fresh database is needed.

let pool: pg.Pool;
let redis: Redis;
let nats: NatsConnection;
let temporal: TemporalConnection;

test.before(async () => {
  const stack = testStack();
  pool = new pg.Pool({ connectionString: stack.pgUrl, max: 2 });
  pool.on('error', () => undefined);
  redis = new Redis(stack.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  await redis.connect();
  nats = await connectNats({ servers: stack.natsUrl });
  temporal = await TemporalConnection.connect({ address: stack.temporalAddress });
});

test.after.always(async () => {
  await Promise.allSettled([pool?.end(), redis?.quit(), nats?.close(), temporal?.close()]);
});

function byName(states: DependencyState[]): Record<string, DependencyState> {
  return Object.fromEntries(states.map((state) => [state.name, state]));
}

test('a check that does not answer within the deadline reports a timeout, and the others still answer', async (t) => {
  const probe = createDependencyProbe({
    pool,
    redis,
    nats,
    temporal,
    pendingMigrations: () => new Promise<string[]>(() => undefined),
    // Long enough for the real servers to answer on a busy machine (300 ms was not, in CI).
    timeoutMs: 2_000,
  });
  const states = byName(await probe.check());
  t.deepEqual(states.migrations, { name: 'migrations', ok: false, error: 'timed out after 2000ms' });
  for (const name of ['postgres', 'redis', 'nats', 'temporal']) t.true(states[name]?.ok, name);
});

test('pending migrations are listed in order', async (t) => {
  const probe = createDependencyProbe({ pool, redis, nats, temporal, pendingMigrations: () => Promise.resolve(['0002_rooms', '0003_chat']) });
  const states = byName(await probe.check());
  t.deepEqual(states.migrations, { name: 'migrations', ok: false, error: 'pending: 0002_rooms, 0003_chat' });
});

test('closed and disconnected clients are reported with their state instead of throwing', async (t) => {
  const stack = testStack();
  const closedNats = await connectNats({ servers: stack.natsUrl });
  await closedNats.close();
  const droppedRedis = new Redis(stack.redisUrl, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  droppedRedis.on('error', () => undefined);
  await droppedRedis.connect();
  const ended = once(droppedRedis, 'end');
  droppedRedis.disconnect();
  await ended;
  const failingMigrations = (): Promise<string[]> => Promise.reject(new Error('relation "schema_migrations" is unreadable'));

  const probe = createDependencyProbe({ pool, redis: droppedRedis, nats: closedNats, temporal, pendingMigrations: failingMigrations });
  const states = byName(await probe.check());
  t.deepEqual(states.nats, { name: 'nats', ok: false, error: 'connection is closed' });
  t.deepEqual(states.redis, { name: 'redis', ok: false, error: 'not connected (end)' });
  t.deepEqual(states.migrations, { name: 'migrations', ok: false, error: 'relation "schema_migrations" is unreadable' });
  t.true(states.postgres?.ok);
  t.true(states.temporal?.ok);
});

test('errors without a message are still described', (t) => {
  const refused = Object.assign(new Error(''), { code: 'ECONNREFUSED' });
  t.is(describeError(new AggregateError([refused, new Error('other')], '')), 'ECONNREFUSED');
  t.is(describeError(new Error('boom')), 'boom');
  t.is(describeError('plain text'), 'plain text');
});
