/**
 * An image carries the review workflows bundled at its build (workflows/prebuilt-bundle.ts):
 * a worker process reads that bundle instead of running webpack at its start. A checkout's
 * build deletes any bundle left from an earlier build (infra/build.sh), so none is read here
 * unless written by this test.
 */
import test from 'ava';
import { rm, writeFile } from 'node:fs/promises';
import { pino } from 'pino';
import { bundleReviewWorkflows, PREBUILT_BUNDLE_PATH } from '../../workflows/prebuilt-bundle.js';
import { reviewWorkflowBundle } from '../../workflows/worker.js';

test('a worker reads the bundle written at build time instead of bundling the workflows again', async (t) => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  // Made as the Containerfile makes it, from this build, with a mark to tell it apart.
  const code = `${await bundleReviewWorkflows(logger)}\n// written by prebuilt-bundle.test\n`;
  await writeFile(PREBUILT_BUNDLE_PATH, code);
  t.teardown(() => rm(PREBUILT_BUNDLE_PATH, { force: true }));

  const bundle = await reviewWorkflowBundle(logger);
  t.is(bundle.code, code);
  t.true(lines.some((line) => line.includes('review workflows read from the image')), lines.join(''));
});
