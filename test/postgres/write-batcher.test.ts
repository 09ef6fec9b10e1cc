import test from 'ava';
import { WriteBatcher } from '../../postgres/write-batcher.js';

/** A write whose batches the test sees and finishes by hand. */
class ControlledWrite {
  readonly batches: Array<{ items: number[]; finish(outcomes?: Array<string | Error>): void; fail(err: Error): void }> = [];
  private waiters: Array<() => void> = [];

  readonly write = (items: number[]): Promise<Array<string | Error>> =>
    new Promise((resolve, reject) => {
      this.batches.push({ items, finish: (outcomes) => resolve(outcomes ?? items.map((n) => `stored ${n}`)), fail: reject });
      for (const wake of this.waiters.splice(0)) wake();
    });

  /** Resolves once `count` batches have started. */
  async started(count: number): Promise<void> {
    while (this.batches.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
}

test('items submitted together go out as one batch, answered in order', async (t) => {
  const db = new ControlledWrite();
  const batcher = new WriteBatcher(db.write, { maxBatch: 100, maxInFlight: 2 });
  const results = [1, 2, 3].map((n) => batcher.submit(n));
  await db.started(1);
  t.deepEqual(db.batches[0]?.items, [1, 2, 3]);
  db.batches[0]?.finish();
  t.deepEqual(await Promise.all(results), ['stored 1', 'stored 2', 'stored 3']);
});

test('while maxInFlight batches run, later items wait and then go together', async (t) => {
  const db = new ControlledWrite();
  const batcher = new WriteBatcher(db.write, { maxBatch: 100, maxInFlight: 1 });
  const first = batcher.submit(1);
  await db.started(1);
  const later = [2, 3, 4].map((n) => batcher.submit(n));
  // Nothing more starts while the first batch holds the only slot.
  await new Promise((resolve) => setImmediate(resolve));
  t.is(db.batches.length, 1);
  db.batches[0]?.finish();
  t.is(await first, 'stored 1');
  await db.started(2);
  t.deepEqual(db.batches[1]?.items, [2, 3, 4]);
  db.batches[1]?.finish();
  t.deepEqual(await Promise.all(later), ['stored 2', 'stored 3', 'stored 4']);
});

test('a batch never holds more than maxBatch items', async (t) => {
  const db = new ControlledWrite();
  const batcher = new WriteBatcher(db.write, { maxBatch: 2, maxInFlight: 4 });
  const results = [1, 2, 3, 4, 5].map((n) => batcher.submit(n));
  await db.started(3);
  t.deepEqual(
    db.batches.map((batch) => batch.items),
    [[1, 2], [3, 4], [5]],
  );
  for (const batch of db.batches) batch.finish();
  t.is((await Promise.all(results)).length, 5);
});

test('an Error outcome fails its item alone; a failed write fails its whole batch and later batches still run', async (t) => {
  const db = new ControlledWrite();
  const batcher = new WriteBatcher(db.write, { maxBatch: 100, maxInFlight: 1 });
  const [a, b] = [batcher.submit(1), batcher.submit(2)];
  await db.started(1);
  db.batches[0]?.finish(['stored 1', new Error('item 2 refused')]);
  t.is(await a, 'stored 1');
  await t.throwsAsync(b, { message: 'item 2 refused' });

  const [c, d] = [batcher.submit(3), batcher.submit(4)];
  await db.started(2);
  db.batches[1]?.fail(new Error('connection lost'));
  await t.throwsAsync(c, { message: 'connection lost' });
  await t.throwsAsync(d, { message: 'connection lost' });

  const e = batcher.submit(5);
  await db.started(3);
  db.batches[2]?.finish();
  t.is(await e, 'stored 5');
});

test('a write answering the wrong number of outcomes fails the batch rather than misattributing results', async (t) => {
  const db = new ControlledWrite();
  const batcher = new WriteBatcher(db.write, { maxBatch: 100, maxInFlight: 1 });
  const results = [batcher.submit(1), batcher.submit(2)];
  await db.started(1);
  db.batches[0]?.finish(['stored 1']);
  for (const result of results) await t.throwsAsync(result, { message: /1 outcomes for 2 items/ });
});
