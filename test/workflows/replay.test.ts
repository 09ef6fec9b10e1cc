import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { installTemporalLogging, reviewWorkflowBundle } from '../../workflows/worker.js';
import { repoRoot } from '../harness/stack.js';
import { decodeHistoryFile } from './history-file.js';
import { capturingLogger } from './fixtures.js';

// Histories recorded from real runs (record-histories.ts) replayed against today's workflow
// code: a change that would make a running review take another path fails here, before it
// reaches a deployment with reviews in flight.
const HISTORIES = join(repoRoot(), 'test', 'workflows', 'histories');
const REQUIRED = ['registration-approve', 'registration-expire', 'registration-reject', 'room-approve'];
const { logger } = capturingLogger();
installTemporalLogging(logger);

async function historyFiles(): Promise<string[]> {
  return (await readdir(HISTORIES)).filter((name) => name.endsWith('.json')).sort();
}

async function load(name: string): Promise<ReturnType<typeof decodeHistoryFile>> {
  return decodeHistoryFile(await readFile(join(HISTORIES, name), 'utf8'));
}

test('every recorded history is checked in', async (t) => {
  t.deepEqual(
    (await historyFiles()).map((name) => name.replace(/\.json$/, '')).filter((name) => REQUIRED.includes(name)),
    REQUIRED,
  );
});

test('every recorded history replays against the current workflow code', async (t) => {
  const workflowBundle = await reviewWorkflowBundle(logger);
  const files = await historyFiles();
  t.true(files.length >= REQUIRED.length);
  for (const name of files) {
    const { file, history } = await load(name);
    t.true((history.events?.length ?? 0) > 5, `${name} has events`);
    await t.notThrowsAsync(Worker.runReplayHistory({ workflowBundle }, history, name), `${name} (${file.description})`);
  }
});

test('replay catches a change of path: the approval calling another activity', async (t) => {
  const workflowBundle = await reviewWorkflowBundle(logger);
  const { history } = await load('registration-approve.json');
  // As if the code now scheduled another activity where the recorded run scheduled approveRegistration.
  const scheduled = history.events?.find((event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'approveRegistration');
  const attributes = scheduled?.activityTaskScheduledEventAttributes;
  if (!attributes?.activityType) throw new Error('the recorded approval scheduled no approveRegistration');
  attributes.activityType.name = 'createAccount';
  await t.throwsAsync(Worker.runReplayHistory({ workflowBundle }, history, 'changed'), { instanceOf: DeterminismViolationError });
});
