import type { Connection as TemporalConnection } from '@temporalio/client';
import type { Redis } from 'ioredis';
import type { NatsConnection } from 'nats';
import type pg from 'pg';
import type { DependencyName, DependencyState, ReadinessProbe } from '../observability/index.js';

export interface DependencyProbeDeps {
  pool: pg.Pool;
  /** Should fail fast when Redis is down (`enableOfflineQueue: false`), or PING waits for the deadline. */
  redis: Redis;
  nats: NatsConnection;
  temporal: TemporalConnection;
  /** Names of migrations not yet applied, in order; throws when it cannot tell. */
  pendingMigrations: () => Promise<string[]>;
  /** Deadline of each check, default 2000 ms. */
  timeoutMs?: number;
  /** What the process's roles say of themselves (ReadinessProbe.details). */
  details?: () => Record<string, unknown>;
}

const DEFAULT_TIMEOUT_MS = 2000;

// grpc.health.v1.HealthCheckResponse.ServingStatus; the enum lives in @temporalio/proto,
// which this project does not depend on directly.
const GRPC_SERVING_STATUS = ['UNKNOWN', 'SERVING', 'NOT_SERVING', 'SERVICE_UNKNOWN'] as const;
const GRPC_SERVING = 1;
const TEMPORAL_FRONTEND_SERVICE = 'temporal.api.workflowservice.v1.WorkflowService';

/**
 * Checks every dependency concurrently, each against its own deadline, so one hung
 * dependency costs at most `timeoutMs` and is named as the one that timed out. Never
 * throws: every failure becomes a not-ok state with its error text.
 */
export function createDependencyProbe(deps: DependencyProbeDeps): ReadinessProbe {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;

  return {
    ...(deps.details ? { details: deps.details } : {}),
    async check(): Promise<DependencyState[]> {
      const postgres = timedCheck('postgres', timeoutMs, async () => {
        await deps.pool.query('SELECT 1');
      });
      const migrationsOwn = timedCheck('migrations', timeoutMs, async () => {
        const pending = await deps.pendingMigrations();
        if (pending.length > 0) throw new Error(`pending: ${pending.join(', ')}`);
      });
      // Whatever the migration query says while PostgreSQL is unreachable is noise; the
      // postgres entry already carries the cause.
      const migrations = Promise.all([postgres, migrationsOwn]).then(
        ([db, own]): DependencyState => (db.ok ? own : { name: 'migrations', ok: false, error: 'unknown (postgres is not ready)' }),
      );
      const redis = timedCheck('redis', timeoutMs, async () => {
        // A client that is reconnecting would queue or reject the PING with a message
        // about its offline queue; its connection state says more.
        const notConnected = () => new Error(`not connected (${deps.redis.status})`);
        if (deps.redis.status !== 'ready') throw notConnected();
        try {
          await deps.redis.ping();
        } catch (err) {
          // The connection may have dropped while the status still said ready.
          throw deps.redis.status === 'ready' ? err : notConnected();
        }
      });
      const nats = timedCheck('nats', timeoutMs, async () => {
        if (deps.nats.isClosed()) throw new Error('connection is closed');
        await deps.nats.flush();
      });
      const temporal = timedCheck('temporal', timeoutMs, async (signal) => {
        const response = await deps.temporal.withAbortSignal(signal, () =>
          deps.temporal.healthService.check({ service: TEMPORAL_FRONTEND_SERVICE }),
        );
        // The health proto's ServingStatus enum, read as the number it is on the wire.
        const status: number = response.status ?? 0;
        if (status !== GRPC_SERVING) throw new Error(`frontend is ${GRPC_SERVING_STATUS[status] ?? `in status ${status}`}`);
      });

      return Promise.all([postgres, migrations, redis, nats, temporal]);
    },
  };
}

async function timedCheck(
  name: DependencyName,
  timeoutMs: number,
  operation: (signal: AbortSignal) => Promise<void>,
): Promise<DependencyState> {
  const started = performance.now();
  const abort = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  try {
    // Promise.race keeps a handler on the operation, so its late rejection is not unhandled.
    const outcome = await Promise.race([operation(abort.signal).then(() => 'done' as const), deadline]);
    if (outcome === 'timeout') {
      abort.abort();
      return { name, ok: false, error: `timed out after ${timeoutMs}ms` };
    }
    return { name, ok: true, latencyMs: Math.round((performance.now() - started) * 100) / 100 };
  } catch (err) {
    return { name, ok: false, error: describeError(err) };
  } finally {
    clearTimeout(timer);
  }
}

/** Error text an operator can act on, also for errors whose message is empty. */
export function describeError(err: unknown): string {
  // Node reports a refused dual-stack connect as an AggregateError with an empty message.
  if (err instanceof AggregateError && err.errors.length > 0 && !err.message) return describeError(err.errors[0]);
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return err.message || (typeof code === 'string' ? code : '') || err.name;
  }
  return String(err);
}
