/**
 * The public surface of workflows/: what code outside workflows/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 *
 * The review client, the ids and the activities are what the gateways, the accounts and the
 * actors use in every role. The worker (worker.ts, runtime-logger.ts) is the worker role's
 * alone: @temporalio/worker with its bundler is about 680 CommonJS files and 0.4 s of loading,
 * which every other process (a gateway, an actor host, each test file's service) paid through
 * this entry. So the functions below load it when called.
 */
import type { Logger } from '../observability/index.js';
import type { WorkflowBundle } from '@temporalio/worker';
import type { ReviewWorker, ReviewWorkerOptions } from './worker.js';

export { createActivities } from './activities.js';
export { registrationReviewId } from './ids.js';
export { MAX_LIST_LIMIT, ReviewClient, type ReviewFilter } from './review-client.js';
export { temporalUiLink, type ReviewLink } from './review-link.js';
export { reviewMetricsSinks } from './review-metrics-sink.js';
export { WorkflowRoomReviewHook } from './room-review/hook.js';
export { actorRoomDecisions } from './room-review/room-decisions.js';
export { ensureSearchAttributes } from './search-attributes.js';
export type { ReviewWorker, ReviewWorkerOptions } from './worker.js';

/** Temporal's worker runtime logs through `logger` (runtime-logger.ts): call before the process's first NativeConnection or Worker. */
export async function installTemporalLogging(logger: Logger): Promise<boolean> {
  const runtimeLogger = await import('./runtime-logger.js');
  return runtimeLogger.installTemporalLogging(logger);
}

/** Starts bundling the review workflows in the background (worker.ts); resolves once it has started. */
export async function prepareReviewWorkflows(logger: Logger): Promise<void> {
  const worker = await import('./worker.js');
  worker.prepareReviewWorkflows(logger);
}

/** The review workflows' bundle of this process (worker.ts): the image's, or built at its first call. */
export async function reviewWorkflowBundle(logger: Logger): Promise<WorkflowBundle> {
  const worker = await import('./worker.js');
  return worker.reviewWorkflowBundle(logger);
}

/** Runs the review worker (worker.ts) until its `stop()`. */
export async function startReviewWorker(options: ReviewWorkerOptions): Promise<ReviewWorker> {
  const worker = await import('./worker.js');
  return worker.startReviewWorker(options);
}
