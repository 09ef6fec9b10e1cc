/**
 * The worker role: the Temporal worker that runs registration and room review workflows. Its
 * preparation comes before any connection exists, its namespace is checked before anything
 * else starts, and the worker itself starts after the actor host (see service.ts for why).
 * service.ts loads this module only for a process with the worker role: it brings Temporal's
 * worker SDK (NativeConnection here, the worker and its bundler through workflows/).
 */
import { NativeConnection } from '@temporalio/worker';
import type { Accounts } from '../accounts/index.js';
import { ActorClient } from '../actors/client.js';
import type { StartupConfig } from '../config/index.js';
import { AppError } from '../errors/index.js';
import type { Logger, Metrics } from '../observability/index.js';
import { actorRoomDecisions, createActivities, ensureSearchAttributes, installTemporalLogging, prepareReviewWorkflows, type ReviewClient, reviewMetricsSinks, startReviewWorker } from '../workflows/index.js';
import type { Connections } from './connections.js';
import type { Stops } from './stops.js';

/** Before any worker connection exists: the Temporal runtime takes its logger when created. */
export async function prepareWorkerRole(logger: Logger): Promise<void> {
  await installTemporalLogging(logger);
  await prepareReviewWorkflows(logger);
}

/** The worker role needs its namespace to exist; say so at start rather than at first use. */
export async function checkTemporalNamespace(connections: Connections, config: StartupConfig): Promise<void> {
  try {
    await connections.temporal.workflowService.describeNamespace({ namespace: config.temporal.namespace });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    throw new AppError('unavailable', `temporal.namespace "${config.temporal.namespace}" is not usable at ${config.temporal.address}: ${message}`);
  }
}

export interface WorkerRoleStart {
  config: StartupConfig;
  logger: Logger;
  connections: Connections;
  accounts: Accounts;
  reviews: ReviewClient;
  metrics: Metrics;
}

export async function startWorkerRole(start: WorkerRoleStart, stops: Stops): Promise<void> {
  const { config, logger, connections } = start;
  await ensureSearchAttributes(connections.temporal, config.temporal.namespace);
  const workerConnection = await NativeConnection.connect({ address: config.temporal.address });
  stops.push(() => workerConnection.close());
  const worker = await startReviewWorker({
    connection: workerConnection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.task_queue,
    activities: createActivities({
      registrations: start.accounts.registration,
      rooms: actorRoomDecisions(new ActorClient(connections.nats, config.nats.subject_prefix), logger),
    }),
    logger,
    sinks: reviewMetricsSinks(start.metrics.registry, start.reviews, logger),
  });
  // Stopped before the actor host drains: a decision in flight still reaches its room.
  stops.push(() => worker.stop());
}
