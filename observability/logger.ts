import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs, on stdout for the server. CLI commands whose stdout is data (JSON
 * lines, tables) log to stderr so the two never mix. Secrets are redacted by path so a
 * config object or a request header can be logged without leaking them.
 */
export function createLogger(options: { level?: string; name?: string; destination?: 'stdout' | 'stderr' } = {}): Logger {
  const destination = pino.destination({ fd: options.destination === 'stderr' ? 2 : 1, sync: true });
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
