import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import { isAppError } from '../../errors/app-error.js';
import { REVIEW_SEARCH_ATTRIBUTES } from '../../workflows/ids.js';
import { ensureSearchAttributes } from '../../workflows/search-attributes.js';
import { testStack } from '../harness/stack.js';
import { waitFor } from './fixtures.js';

// A worker registers the review search attributes in a namespace that lacks them (production
// namespaces are not started with --search-attribute like the dev server).
let connection: Connection;
const KEYWORD = 2;
const TEXT = 1;

test.before(async () => {
  connection = await Connection.connect({ address: testStack().temporalAddress });
});

test.after.always(async () => {
  await connection?.close();
});

async function freshNamespace(): Promise<string> {
  const namespace = `svc-test-${randomBytes(4).toString('hex')}`;
  await connection.workflowService.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs('1 day') });
  // A new namespace reaches the server's namespace cache within moments.
  await waitFor('the namespace', async () => (await connection.operatorService.listSearchAttributes({ namespace })) ?? undefined, 30_000, 200);
  return namespace;
}

async function custom(namespace: string): Promise<Record<string, number>> {
  const { customAttributes } = await connection.operatorService.listSearchAttributes({ namespace });
  return Object.fromEntries(Object.entries(customAttributes ?? {}).map(([name, type]) => [name, Number(type)]));
}

test('registers the four Keyword attributes once, then finds them', async (t) => {
  const namespace = await freshNamespace();
  const names = REVIEW_SEARCH_ATTRIBUTES.map((key) => key.name);
  t.deepEqual(names, ['SvcReviewKind', 'SvcReviewMode', 'SvcReviewSubject', 'SvcReviewState']);
  const before = await custom(namespace);
  t.false(names.some((name) => name in before));

  t.deepEqual(await ensureSearchAttributes(connection, namespace), names);
  const after = await custom(namespace);
  for (const name of names) t.is(after[name], KEYWORD, name);
  t.deepEqual(await ensureSearchAttributes(connection, namespace), []);
  // Two workers starting together both succeed.
  const again = await Promise.all([ensureSearchAttributes(connection, namespace), ensureSearchAttributes(connection, namespace)]);
  t.deepEqual(again, [[], []]);
});

test('an attribute of another type is a conflict naming it', async (t) => {
  const namespace = await freshNamespace();
  await connection.operatorService.addSearchAttributes({ namespace, searchAttributes: { SvcReviewState: TEXT } });
  const err = await t.throwsAsync(ensureSearchAttributes(connection, namespace));
  t.true(isAppError(err));
  t.is(isAppError(err) ? err.code : undefined, 'conflict');
  t.regex(err?.message ?? '', /SvcReviewState .* another type than Keyword/);
});
