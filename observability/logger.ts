import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, on stdout for the server. CLI commands whose stdout is data (JSON
 * lines, tables) log to stderr so the two never mix. Secrets are redacted by path so a
 * config object or a request header can be logged without leaking them.
 */
export interface LoggerOptions {
  level?: string;
  name?: string;
  destination?: 'stdout' | 'stderr';
  /**
   * Buffer lines and write them when the fd takes them, instead of waiting for each write.
   * The server needs this: stdout is usually a pipe (a terminal, a log shipper, a supervisor)
   * and a synchronous write to a full pipe stalls the event loop until the reader catches up;
   * an actor host stalled past its lease loses every actor it holds, whose takeover logs more.
   * Beyond BUFFER_LIMIT unwritten bytes, new lines are dropped rather than stalling. Whatever is
   * buffered is written out when the process exits.
   */
  buffered?: boolean;
}

/** Unwritten log bytes a buffered logger holds before it drops lines. */
const BUFFER_LIMIT = 16 * 1024 * 1024;

export function createLogger(options: LoggerOptions = {}): Logger {
  const fd = options.destination === 'stderr' ? 2 : 1;
  const destination = options.buffered
    ? // minLength 1 writes each line at once, as 0 would, but makes flush(cb) wait for the lines in
      // flight (with 0 it calls back at once): `svc serve` waits so its URLs come after its log.
      pino.destination({ fd, sync: false, minLength: 1, maxLength: BUFFER_LIMIT })
    : pino.destination({ fd, sync: true });
  if (options.buffered) {
    process.once('exit', () => {
      try {
        destination.flushSync();
      } catch {
        // The reader is gone or still full; nothing more can be done while exiting.
      }
    });
  }
  return pino({
    name: options.name ?? 'svc',
    level: options.level ?? process.env.SVC_LOG_LEVEL ?? 'info',
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.password',
        '*.secret',
        '*.token',
        '*.clientSecret',
      ],
      censor: '[redacted]',
    },
  }, destination);
}
