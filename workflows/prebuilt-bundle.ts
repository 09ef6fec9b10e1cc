/**
 * The review workflows bundled once, at build time, for the container image: without it every
 * worker process runs webpack over the workflow code at its start (about 1.5 s of a core).
 *
 *   node dist/workflows/prebuilt-bundle.js     # writes PREBUILT_BUNDLE_PATH (the Containerfile does)
 *
 * A bundle is only as fresh as the build it was made from, so `infra/build.sh` deletes it at
 * every compile: a checkout that is being worked on always bundles at start, and only an image
 * (whose code never changes after its build) carries one.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { createLogger, type Logger } from '../observability/index.js';
import { temporalLogger } from './runtime-logger.js';

/** Beside the compiled workflows: the worker (worker.ts) uses it when it is there. */
export const PREBUILT_BUNDLE_PATH = fileURLToPath(new URL('./review-workflows.bundle.js', import.meta.url));

/** The compiled workflow entry point beside this file: the bundler reads JavaScript. */
const REVIEW_WORKFLOWS_PATH = fileURLToPath(new URL('./sandbox.js', import.meta.url));

/** Runs the bundler over the review workflows. */
export async function bundleReviewWorkflows(logger: Logger): Promise<string> {
  const { code } = await bundleWorkflowCode({ workflowsPath: REVIEW_WORKFLOWS_PATH, logger: temporalLogger(logger, { quiet: true }) });
  return code;
}

async function main(): Promise<void> {
  const logger = createLogger({ level: 'info', destination: 'stderr' });
  const startedAt = performance.now();
  const code = await bundleReviewWorkflows(logger);
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  logger.info({ path: PREBUILT_BUNDLE_PATH, bytes: code.length, ms: Math.round(performance.now() - startedAt) }, 'review workflows bundled for the image');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
