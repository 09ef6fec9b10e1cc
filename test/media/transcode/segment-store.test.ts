/**
 * The disk under the rung encoders (media/transcode/segment-store.ts): past its byte bound the
 * least recently served segments go, never those of a rung being written to; counts for metrics.
 */
import test from 'ava';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SegmentStore, type RungShelf } from '../../../media/transcode/segment-store.js';
import { eventually } from '../../fixtures/deadline.js';

async function put(shelf: RungShelf, n: number, bytes: number): Promise<void> {
  await writeFile(join(shelf.folder, `${n}.m4s`), Buffer.alloc(bytes));
  shelf.added(n, bytes);
}

test('least recently used segments of idle rungs go past the bound; counts follow', async (t) => {
  const root = await mkdtemp(join(tmpdir(), 'svc-segment-store-'));
  t.teardown(() => rm(root, { recursive: true, force: true }));
  const store = new SegmentStore({ root, maxBytes: 300 });
  const [a, b] = await Promise.all([store.shelf('item1-720p'), store.shelf('item2-copy')]);
  t.is(await store.shelf('item1-720p'), a, 'one shelf per rung');
  await put(a, 0, 100);
  await put(a, 1, 100);
  await put(b, 0, 100);
  a.served(0, true);
  b.served(0, false);
  t.like(store.stats(), { bytes: 300, segments: 3, served: 2, hits: 1, misses: 1 });

  // Over the bound: a's segment 1 was used least recently.
  await put(b, 1, 100);
  t.false(a.has(1));
  t.true(a.has(0));
  await eventually(() => !existsSync(join(a.folder, '1.m4s')), 5_000, "the evicted segment's file deleted");
  t.like(store.stats(), { bytes: 300, segments: 3 });

  // A rung being written keeps its segments, even the least recently used.
  a.writing = true;
  await put(b, 2, 100);
  t.true(a.has(0));
  t.false(b.has(0));
  a.writing = false;

  await store.drop('item2-copy');
  t.false(existsSync(b.folder));
  t.like(store.stats(), { bytes: 100, segments: 1 });
  t.throws(() => store.shelf('../escape'), { message: /letters, digits/ });
});
