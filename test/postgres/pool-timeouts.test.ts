/**
 * The pool's bounds on PostgreSQL (postgres/pool.ts), against the stack's real server: a
 * connection that stops answering (a TCP proxy that black-holes it), a statement that runs too
 * long, a transaction left idle, and the longer bound that maintenance work gets.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import test, { type ExecutionContext } from 'ava';
import type pg from 'pg';
import { isAppError } from '../../errors/app-error.js';
import { createLogger } from '../../observability/logger.js';
import { classifyDatabaseError } from '../../postgres/errors.js';
import { migrate } from '../../postgres/migrate.js';
import { DATABASE_TIMEOUTS, createPool, withLongStatements } from '../../postgres/pool.js';
import { withDeadline } from '../fixtures/deadline.js';
import { freshDatabase } from '../harness/stack.js';

const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' });

/**
 * A TCP proxy in front of PostgreSQL that can stop forwarding without closing anything, in
 * both directions: what a dead server host or a network black hole looks like to the client.
 */
class BlackHoleProxy {
  forwarding = true;
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  port = 0;

  async start(target: { host: string; port: number }): Promise<void> {
    const server = createServer((downstream) => {
      const upstream = connect(target.port, target.host);
      for (const [from, to] of [
        [downstream, upstream],
        [upstream, downstream],
      ] as const) {
        this.sockets.add(from);
        from.on('data', (chunk) => {
          if (this.forwarding) to.write(chunk);
        });
        from.on('error', () => to.destroy());
        from.on('close', () => {
          this.sockets.delete(from);
          to.destroy();
        });
      }
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', resolve);
    });
    this.port = (server.address() as AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A pool on a fresh database, closed after the test. */
async function poolOn(t: ExecutionContext, label: string, url?: string): Promise<pg.Pool> {
  const pool = createPool({ url: url ?? (await freshDatabase(label)), max: 2, applicationName: `svc-test-${label}`, logger });
  t.teardown(() => pool.end());
  return pool;
}

/** A client checked out of `pool`; a test that fails before releasing it still lets the pool end. */
async function checkOut(t: ExecutionContext, pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  t.teardown(() => {
    try {
      client.release(true);
    } catch {
      // Released by the test already.
    }
  });
  return client;
}

function assertUnavailable(t: ExecutionContext, err: unknown): void {
  const classified = classifyDatabaseError(err, 'test query');
  t.true(isAppError(classified) && classified.code === 'unavailable', `classified ${String(classified)} from ${String(err)}`);
}

/** Settles with the rejection of `promise`, or fails the test if it resolves. */
async function failure(promise: Promise<unknown>, within: number, what: string): Promise<unknown> {
  return withDeadline(
    promise.then(
      () => {
        throw new Error(`${what}: succeeded`);
      },
      (err: unknown) => err,
    ),
    within,
    what,
  );
}

test('a query on a connection that stops answering fails as unavailable within the client bound, and the connection is dropped', async (t) => {
  const url = new URL(await freshDatabase('pool_black_hole'));
  const proxy = new BlackHoleProxy();
  await proxy.start({ host: url.hostname, port: Number(url.port) });
  t.teardown(() => proxy.close());
  url.hostname = '127.0.0.1';
  url.port = String(proxy.port);
  const pool = await poolOn(t, 'pool_black_hole', url.toString());

  // The way withFence uses a connection: check it out, query, and release it without an error.
  const client = await checkOut(t, pool);
  await client.query('SELECT 1');
  proxy.forwarding = false;
  const err = await failure(client.query('SELECT 1'), DATABASE_TIMEOUTS.queryMs + 5_000, 'a query into the black hole');
  assertUnavailable(t, err);
  // The connection is closed at once: a ROLLBACK behind the unanswered query does not wait
  // for another query timeout.
  assertUnavailable(t, await failure(client.query('ROLLBACK'), DATABASE_TIMEOUTS.queryMs / 2, 'a ROLLBACK on the dead connection'));
  client.release();
  t.is(pool.totalCount, 0, 'the pool does not keep the stuck connection');

  // New connections cannot get through either: the connect bound holds.
  assertUnavailable(t, await failure(pool.query('SELECT 1'), DATABASE_TIMEOUTS.connectMs + 5_000, 'a connection into the black hole'));

  proxy.forwarding = true;
  const { rows } = await withDeadline(pool.query<{ ok: number }>('SELECT 1 AS ok'), DATABASE_TIMEOUTS.queryMs, 'a query once the network is back');
  t.deepEqual(rows, [{ ok: 1 }]);
});

test('the server cancels a statement that runs past statement_timeout, as unavailable', async (t) => {
  const pool = await poolOn(t, 'pool_statement_timeout');
  const seconds = (DATABASE_TIMEOUTS.statementMs + 10_000) / 1000;
  const err = await failure(pool.query(`SELECT pg_sleep(${seconds})`), DATABASE_TIMEOUTS.queryMs + 5_000, 'a long statement');
  t.is((err as { code?: string }).code, '57014', 'cancelled by the server (query_canceled), before the client gives up');
  assertUnavailable(t, err);
  t.deepEqual((await pool.query<{ ok: number }>('SELECT 1 AS ok')).rows, [{ ok: 1 }]);
});

test('a transaction left idle is ended by the server, without crashing the process, and its connection is dropped', async (t) => {
  const pool = await poolOn(t, 'pool_idle_in_transaction');
  const client = await checkOut(t, pool);
  const ended = new Promise((resolve) => client.once('end', resolve));
  await client.query('BEGIN');
  await client.query('SELECT 1');
  // Nothing more is sent: the server ends the session (FATAL 25P03) while the client is checked out.
  await withDeadline(ended, DATABASE_TIMEOUTS.idleInTransactionMs + 10_000, 'the server to end the idle transaction');
  assertUnavailable(t, await failure(client.query('COMMIT'), DATABASE_TIMEOUTS.queryMs, 'a COMMIT on the ended session'));
  client.release();
  t.is(pool.totalCount, 0);
  t.deepEqual((await pool.query<{ ok: number }>('SELECT 1 AS ok')).rows, [{ ok: 1 }]);
});

test('migrations and maintenance transactions get a longer bound, which never stays on a pooled connection', async (t) => {
  const pool = createPool({ url: await freshDatabase('pool_long_statements'), max: 1, applicationName: 'svc-test-long', logger });
  t.teardown(() => pool.end());
  const statementTimeout = async () =>
    (await pool.query<{ setting: string }>("SELECT setting FROM pg_settings WHERE name = 'statement_timeout'")).rows[0]?.setting;

  await migrate(pool, logger);
  t.is(await statementTimeout(), String(DATABASE_TIMEOUTS.statementMs), 'the migration session is not handed out again');

  // Longer than both the server's and the client's ordinary bound.
  const seconds = (DATABASE_TIMEOUTS.queryMs + 1_000) / 1000;
  const { rows } = await withLongStatements(pool, DATABASE_TIMEOUTS.queryMs + 10_000, (db) =>
    db.query<{ slept: boolean }>(`SELECT true AS slept FROM pg_sleep(${seconds})`),
  );
  t.deepEqual(rows, [{ slept: true }]);
  t.is(await statementTimeout(), String(DATABASE_TIMEOUTS.statementMs), 'SET LOCAL ended with the transaction');
});
