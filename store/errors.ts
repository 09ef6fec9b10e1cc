import { AppError } from '../errors/app-error.js';

/** Node socket errors that mean the server could not be reached at all. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND', 'EPIPE']);

/**
 * Turns "PostgreSQL is not reachable right now" into `unavailable`, so callers answer 503 and
 * clients retry, instead of a 500 that reads like a bug. Anything else is returned unchanged:
 * a constraint violation or syntax error is a defect and must surface as one.
 */
export function classifyDatabaseError(err: unknown, what: string): unknown {
  if (err instanceof AppError || !(err instanceof Error)) return err;
  const code = (err as { code?: unknown }).code;
  const unreachable =
    (typeof code === 'string' &&
      // Class 08: connection exception; 57P0x: server shutting down or backend terminated.
      (code.startsWith('08') || code.startsWith('57P') || NETWORK_CODES.has(code))) ||
    /timeout exceeded when trying to connect|Connection terminated/i.test(err.message);
  return unreachable ? new AppError('unavailable', `${what}: PostgreSQL is unavailable (${err.message})`) : err;
}
