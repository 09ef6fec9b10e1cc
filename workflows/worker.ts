/**
 * The review worker that `svc serve --role worker` runs: both review workflows and their
 * activities on `temporal.task_queue`. The workflow code is bundled once per process, at the
 * first start (webpack over the compiled `dist/workflows/sandbox.js`, about 1.5 s), and every
 * worker and replay of the process reuses that bundle; an image carries one made at its build
 * (prebuilt-bundle.ts), which is read instead.
 */
import { readFile } from 'node:fs/promises';
import { Worker, type InjectedSinks, type NativeConnection, type WorkflowBundle } from '@temporalio/worker';
import type { Logger } from '../observability/index.js';
import type { ReviewActivities } from './activities.js';
import { bundleReviewWorkflows, PREBUILT_BUNDLE_PATH } from './prebuilt-bundle.js';
import type { ReviewMetricsSinks } from './review-metrics.js';

export { ensureSearchAttributes } from './search-attributes.js';
export { installTemporalLogging } from './runtime-logger.js';

/** Activities still running at shutdown get this long to finish before they are cancelled (and retried elsewhere). */
const SHUTDOWN_GRACE = '10s';

let bundle: Promise<WorkflowBundle> | undefined;

/**
 * The review workflows' bundle: the image's, made at its build, or else built at the first call
 * of the process (about 1.5 s of webpack); a failed build is tried again at the next call.
 */
export function reviewWorkflowBundle(logger: Logger): Promise<WorkflowBundle> {
  if (!bundle) {
    const startedAt = performance.now();
    bundle = prebuiltOrBundled(logger).then(
      ({ code, prebuilt }) => {
        logger.info({ ms: Math.round(performance.now() - startedAt), bytes: code.length, prebuilt }, prebuilt ? 'review workflows read from the image' : 'review workflows bundled');
        return { code };
      },
      (err: unknown) => {
        bundle = undefined;
        throw err;
      },
    );
  }
  return bundle;
}

async function prebuiltOrBundled(logger: Logger): Promise<{ code: string; prebuilt: boolean }> {
  const prebuilt = await readFile(PREBUILT_BUNDLE_PATH, 'utf8').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  return prebuilt === undefined ? { code: await bundleReviewWorkflows(logger), prebuilt: false } : { code: prebuilt, prebuilt: true };
}

/**
 * Starts the bundle in the background (a process that will run the worker calls this first,
 * so webpack overlaps with connecting); a failure is reported by the startReviewWorker call.
 */
export function prepareReviewWorkflows(logger: Logger): void {
  reviewWorkflowBundle(logger).catch(() => undefined);
}

export interface ReviewWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  activities: ReviewActivities;
  logger: Logger;
  /** Where the workflows' metrics go (review-metrics-sink.ts); without it their sink calls are dropped. */
  sinks?: InjectedSinks<ReviewMetricsSinks>;
}

export interface ReviewWorker {
  /** Stops polling, lets running activities finish (up to 10 s), and resolves once the worker is down. */
  stop(): Promise<void>;
}

export async function startReviewWorker(options: ReviewWorkerOptions): Promise<ReviewWorker> {
  const { connection, namespace, taskQueue, activities, logger } = options;
  const workflowBundle = await reviewWorkflowBundle(logger);
  const worker = await Worker.create({
    connection,
    namespace,
    taskQueue,
    workflowBundle,
    activities,
    shutdownGraceTime: SHUTDOWN_GRACE,
    ...(options.sinks ? { sinks: options.sinks } : {}),
  });
  const running = worker.run().then(
    () => logger.info({ taskQueue, namespace }, 'review worker stopped'),
    (err: unknown) => logger.error({ err, taskQueue, namespace }, 'review worker failed'),
  );
  logger.info({ taskQueue, namespace }, 'review worker running');
  return {
    stop: async () => {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
