import pg from 'pg';
import { createLogger, type Logger } from '../observability/logger.js';

export interface PoolOptions {
  /** `postgres://` connection URL (startup key `database.url`). */
  url: string;
  /** Upper bound of open connections; default 10. */
  max?: number;
  /** Shown in `pg_stat_activity`, so an operator can tell which process holds a connection. */
  applicationName?: string;
  /** Where a dropped idle connection is reported; a default logger when omitted. */
  logger?: Logger;
}

/** Waiting longer than this for a connection means the database is effectively down. */
const CONNECT_TIMEOUT_MS = 5_000;
/** Idle connections are closed after this, so a quiet replica does not pin server slots. */
const IDLE_TIMEOUT_MS = 30_000;
/** TCP keepalive starts probing after this much silence, to notice a vanished server. */
const KEEPALIVE_DELAY_MS = 10_000;

/**
 * The connection pool every PostgreSQL user in the process shares. An idle client whose
 * server connection drops (restart, failover, `pg_terminate_backend`) makes pg-pool emit
 * `error`; without a listener that would crash the process, so it is logged and the pool
 * replaces the client on next use.
 */
export function createPool(options: PoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'svc',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_DELAY_MS,
  });
  let logger = options.logger;
  pool.on('error', (err) => {
    logger ??= createLogger({ name: 'svc-store' });
    logger.warn({ err: err.message }, 'idle PostgreSQL connection lost; the pool will reconnect on demand');
  });
  return pool;
}
