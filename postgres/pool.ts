import pg from 'pg';
import { parsePostgresUrl } from '../net/index.js';
import { createLogger, type Logger } from '../observability/index.js';
import { HostSelector, selectingClient } from './host-selector.js';

export interface PoolOptions {
  /** `postgres://` connection URL (startup key `database.url`), one host or several. */
  url: string;
  /** Upper bound of open connections; default 10. */
  max?: number;
  /** Shown in `pg_stat_activity`, so an operator can tell which process holds a connection. */
  applicationName?: string;
  /** Where a dropped idle connection is reported; a default logger when omitted. */
  logger?: Logger;
}

/**
 * How long any one step with PostgreSQL may take. The service is real time: a room waits on its
 * queries, and its callers give up after 5 s, so a database that has stopped answering must
 * turn into `unavailable` within seconds, not after TCP gives up many minutes later.
 * `docs/2026-11-22-input-and-database-limits.md` explains each value.
 */
export const DATABASE_TIMEOUTS = {
  /** Waiting longer than this for a connection means the database is effectively down. */
  connectMs: 5_000,
  /**
   * Server side (`statement_timeout`): PostgreSQL cancels a statement running longer, lock
   * waits included, freeing its backend. Every real-time statement here takes milliseconds.
   */
  statementMs: 5_000,
  /**
   * Client side (node-postgres `query_timeout`): a query without an answer this long fails
   * even when the server cannot say anything (stopped, network black hole), and its connection
   * is discarded. Longer than `statementMs`, so a slow but living server cancels first.
   */
  queryMs: 7_000,
  /**
   * Server side (`idle_in_transaction_session_timeout`): a session left idle inside a
   * transaction (frozen or partitioned process) is ended, releasing the row and advisory locks
   * it holds, such as the fence row another host needs to take over a room.
   */
  idleInTransactionMs: 10_000,
} as const;

/** Idle connections are closed after this, so a quiet replica does not pin server slots. */
const IDLE_TIMEOUT_MS = 30_000;
/** TCP keepalive starts probing after this much silence, to notice a vanished server. */
const KEEPALIVE_DELAY_MS = 10_000;
/** node-postgres' message when `query_timeout` fires. */
const READ_TIMEOUT_MESSAGE = 'Query read timeout';

/**
 * The connection pool every PostgreSQL user in the process shares. With several hosts in the
 * URL, new connections go to the one `target_session_attrs` asks for (host-selector.ts), so
 * the pool follows the primary through a failover. An idle client whose
 * server connection drops (restart, failover, `pg_terminate_backend`) makes pg-pool emit
 * `error`; without a listener that would crash the process, so it is logged and the pool
 * replaces the client on next use. A client in use gets a listener of its own for the same
 * reason (the server ends a session idle in a transaction), and a client whose query timed out
 * on the client side is closed at once, so it is never handed out again.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const target = parsePostgresUrl(options.url);
  const selector = new HostSelector(target);
  const pool = new pg.Pool({
    ...selector.configFor(selector.firstHost),
    Client: selectingClient(selector),
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'svc',
    connectionTimeoutMillis: DATABASE_TIMEOUTS.connectMs,
    statement_timeout: DATABASE_TIMEOUTS.statementMs,
    query_timeout: DATABASE_TIMEOUTS.queryMs,
    idle_in_transaction_session_timeout: DATABASE_TIMEOUTS.idleInTransactionMs,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  let logger = options.logger;
  const log = (): Logger => (logger ??= createLogger({ name: 'svc-store' }));
  pool.on('error', (err) => {
    log().warn({ err: err.message }, 'idle PostgreSQL connection lost; the pool will reconnect on demand');
  });
  pool.on('connect', (client) => {
    // pg-pool listens only while the client is idle; an 'error' event while it is checked out
    // would be unhandled. The query in flight, or the next one, fails with the cause.
    client.on('error', (err) => log().debug({ err: err.message }, 'PostgreSQL connection lost while in use'));
    closeOnReadTimeout(client);
  });
  return pool;
}

/**
 * After `query_timeout` fires, node-postgres still waits for the unanswered query on that
 * connection: anything sent next would queue behind it, and a caller that releases the client
 * without an error (as `withFence` does) would hand the stuck connection to the next user.
 * Closing the client at once makes its later queries (a ROLLBACK, say) fail fast and makes
 * the pool drop it on release.
 */
function closeOnReadTimeout(client: pg.PoolClient): void {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  const check = (err: unknown): void => {
    if (err instanceof Error && err.message === READ_TIMEOUT_MESSAGE) client.end().catch(() => undefined);
  };
  const wrapped = (...args: unknown[]): unknown => {
    const callback = args.at(-1);
    if (typeof callback === 'function') {
      args[args.length - 1] = (err: unknown, result: unknown) => {
        check(err);
        (callback as (err: unknown, result: unknown) => void)(err, result);
      };
      return query(...args);
    }
    const result = query(...args);
    return result instanceof Promise
      ? result.catch((err: unknown) => {
          check(err);
          throw err;
        })
      : result;
  };
  (client as unknown as { query: typeof wrapped }).query = wrapped;
}

/** A query config whose client-side bound is `ms` instead of the pool's. */
export function boundedQuery(text: string, values: unknown[] | undefined, ms: number): pg.QueryConfig {
  return { text, ...(values ? { values } : {}), query_timeout: ms } as pg.QueryConfig;
}

/** Queries of a transaction run by `withLongStatements`. */
export interface LongStatements {
  query<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values?: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * Runs `fn` in one transaction whose statements may each take up to `ms`, on both bounds:
 * for maintenance (chat retention) that can legitimately outlast a real-time query. The server
 * bound is set for this transaction only (`SET LOCAL`), so the connection goes back to the
 * pool with the ordinary one. Commits what `fn` did; rolls back when it throws.
 */
export async function withLongStatements<T>(pool: pg.Pool, ms: number, fn: (db: LongStatements) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  const db: LongStatements = {
    query: <R extends pg.QueryResultRow>(text: string, values?: unknown[]) => client.query<R>(boundedQuery(text, values, ms)),
  };
  try {
    await client.query('BEGIN');
    await client.query("SELECT set_config('statement_timeout', $1, true)", [String(Math.round(ms))]);
    const result = await fn(db);
    await db.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
