/**
 * Temporal's worker runtime (workflow and activity logs, the Rust core's warnings) logs
 * through our pino logger, so its lines are JSON lines of the service like every other.
 *
 * The runtime is one per process and takes its logger when it is created, which happens at
 * the first NativeConnection or Worker: call this before either. Later calls keep the first
 * logger (a process running two services in tests logs Temporal lines through the first).
 */
import { IllegalStateError, type LogLevel, type LogMetadata, type Logger as TemporalLogger } from '@temporalio/common';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Logger } from '../observability/index.js';

const PINO_METHOD: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/**
 * A Temporal Logger writing to `logger` (for the runtime and the workflow bundler). `quiet`
 * keeps only warnings and errors: the bundler reports webpack's whole module table at INFO.
 */
export function temporalLogger(logger: Logger, options: { quiet?: boolean } = {}): TemporalLogger {
  const target = logger.child({ component: 'temporal' });
  return new DefaultLogger(options.quiet ? 'WARN' : temporalLevel(logger.level), (entry) => {
    target[PINO_METHOD[entry.level]](metadata(entry.meta), entry.message);
  });
}

/** Installs the runtime with `logger`; false when a runtime already existed (its logger stays). */
export function installTemporalLogging(logger: Logger): boolean {
  try {
    Runtime.install({
      logger: temporalLogger(logger),
      // The Rust core's own warnings (a failing workflow task, a lost connection) too, instead
      // of its coloured lines on stdout.
      telemetryOptions: { logging: { forward: {}, filter: { core: 'WARN', other: 'ERROR' } } },
      // The service decides when its worker stops (SIGTERM drains the actor host first);
      // the runtime must not start a shutdown of its own on the same signal.
      shutdownSignals: [],
    });
    return true;
  } catch (err) {
    if (err instanceof IllegalStateError) return false;
    throw err;
  }
}

function temporalLevel(pinoLevel: string): LogLevel {
  switch (pinoLevel) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}

/** Errors in metadata become their message and stack, which JSON would otherwise drop. */
function metadata(meta: LogMetadata | undefined): Record<string, unknown> {
  if (!meta) return {};
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    out[key] = value instanceof Error ? { type: value.name, message: value.message, stack: value.stack } : value;
  }
  return out;
}
