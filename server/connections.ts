import { Connection as TemporalConnection } from '@temporalio/client';
import { Redis } from 'ioredis';
import { connect as connectNats, type ConnectionOptions, type NatsConnection } from 'nats';
import type pg from 'pg';
import type { StartupConfig } from '../config/index.js';
import { AppError, retryWhileUnavailable } from '../errors/index.js';
import type { Logger } from '../observability/index.js';
import { createPool } from '../postgres/index.js';
import { leaveMinoritySide } from './nats-minority.js';

/** The clients of the four dependencies one process holds, shared by every role in it. */
export interface Connections {
  pool: pg.Pool;
  redis: Redis;
  nats: NatsConnection;
  temporal: TemporalConnection;
  close(): Promise<void>;
}

/**
 * Connects to PostgreSQL, Redis, NATS and Temporal concurrently. A dependency that cannot be
 * reached at start fails the start with a message naming it and its config key, because
 * every later error would only be a consequence of that one (spec 7.2 rule 1); with `waitMs`,
 * only once that long has passed (`svc serve --wait`, for starts beside the dependencies).
 */
export function openConnections(config: StartupConfig, logger: Logger, waitMs = 0): Promise<Connections> {
  return retryWhileUnavailable(() => connectAll(config, logger), waitMs, (error, attempt) =>
    logger.warn({ err: error.message, attempt }, 'a dependency cannot be reached yet; trying again (serve --wait)'),
  );
}

async function connectAll(config: StartupConfig, logger: Logger): Promise<Connections> {
  const pool = createPool({ url: config.database.url, max: config.database.pool_max, applicationName: `svc:${config.replica_id}` });
  const redis = new Redis(config.redis.url, {
    lazyConnect: true,
    // Fail fast when Redis is down so readiness answers instead of queueing forever.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Commands issued in the same tick (a sign-in's rate-limit counters, say) leave in one write.
    enableAutoPipelining: true,
    connectionName: `svc:${config.replica_id}`,
  });
  redis.on('error', (err: Error) => logger.warn({ err: err.message }, 'redis connection error'));

  const results = await Promise.allSettled([
    named('database.url', pool.query('SELECT 1')),
    named('redis.url', redis.connect()),
    named('nats.url', connectNats(natsOptions(config.nats.url.split(','), `svc:${config.replica_id}`))),
    named('temporal.address', TemporalConnection.connect({ address: config.temporal.address, connectTimeout: 5_000 })),
  ]);
  const failure = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  const [, , natsResult, temporalResult] = results;
  const nats = natsResult?.status === 'fulfilled' ? natsResult.value : undefined;
  const temporal = temporalResult?.status === 'fulfilled' ? temporalResult.value : undefined;

  const minority = nats ? leaveMinoritySide(nats, { logger }) : undefined;
  const close = async (): Promise<void> => {
    minority?.stop();
    await Promise.allSettled([
      pool.end(),
      redis.quit().catch(() => redis.disconnect()),
      nats?.close(),
      temporal?.close(),
    ]);
  };
  if (failure || !nats || !temporal) {
    await close();
    throw failure?.reason ?? new AppError('unavailable', 'a dependency could not be reached');
  }
  return { pool, redis, nats, temporal, close };
}

/** How every svc process (and the test harness driving one) connects to NATS. */
export function natsOptions(servers: string[], name: string): ConnectionOptions {
  return {
    servers,
    name,
    maxReconnectAttempts: -1,
    // nats.js waits 2 s between attempts on one server by default: after a NATS restart that
    // alone kept every process away for up to 2 s after the server was back.
    reconnectTimeWait: 250,
    reconnectJitter: 100,
    // Otherwise nats.js builds an Error per request to keep its async stack: measured at a
    // quarter of the CPU of a process sending commands at full rate.
    noAsyncTraces: true,
  };
}

async function named<T>(key: string, promise: Promise<T>): Promise<T> {
  try {
    return await promise;
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('unavailable', `cannot reach the dependency configured by ${key}: ${message}`);
  }
}
