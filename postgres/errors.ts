import { AppError } from '../errors/index.js';

/** Node socket errors that mean the server could not be reached at all. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);

/**
 * SQLSTATEs of a statement or session the server ended for taking too long (postgres/pool.ts):
 * 57014 query_canceled (statement_timeout, or an operator's cancel), 25P03 idle in transaction
 * too long. The database is overloaded, locked up or the session was abandoned: try again.
 */
const TIMEOUT_CODES = new Set(['57014', '25P03']);

/**
 * node-postgres' messages for a connection that is gone or never came: the connect and query
 * timeouts (the server said nothing in time) and a client closed after one.
 */
const UNREACHABLE_MESSAGE = /timeout exceeded when trying to connect|Connection terminated|Query read timeout|is not queryable/i;

/**
 * Turns "PostgreSQL is not reachable right now" (or not answering in time) into `unavailable`,
 * so callers answer 503 and clients retry, instead of a 500 that reads like a bug. Anything
 * else is returned unchanged: a constraint violation or syntax error is a defect and must
 * surface as one. `detail: false` keeps the driver's message (hosts, ports) out of the error's
 * own message, for errors answered to clients at the gateways.
 */
export function classifyDatabaseError(err: unknown, what: string, options: { detail?: boolean } = {}): unknown {
  if (err instanceof AppError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  const unreachable =
    (typeof code === 'string' &&
      // Class 08: connection exception; 57P0x: server shutting down or backend terminated.
      (code.startsWith('08') || code.startsWith('57P') || NETWORK_CODES.has(code) || TIMEOUT_CODES.has(code))) ||
    UNREACHABLE_MESSAGE.test(err.message);
  if (!unreachable) return err;
  // The detail names hosts and ports: for operators and logs (the cause), not for any client.
  const message = options.detail === false ? `${what}: the database is unavailable; try again` : `${what}: PostgreSQL is unavailable (${err.message})`;
  return new AppError('unavailable', message, [], { cause: err });
}
