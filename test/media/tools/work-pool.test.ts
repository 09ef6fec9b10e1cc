/**
 * The bounded pool media tools and subtitle workers run in (media/tools/work-pool.ts): at most
 * `concurrency` jobs at once, a line of `queueSize` behind them that each waits `queueWaitMs` at
 * most, `resource_exhausted` with a Retry-After past either, first come first served, and one run for asks
 * of the same key.
 */
import test from 'ava';
import { AppError } from '../../../errors/app-error.js';
import { WorkPool, type PoolOutcome } from '../../../media/tools/work-pool.js';

/** A job that runs until the test ends it. */
function gate<T>(): { job: () => Promise<T>; started: Promise<void>; finish: (value: T) => void; fail: (error: Error) => void } {
  let started!: () => void;
  let finish!: (value: T) => void;
  let fail!: (error: Error) => void;
  const startedPromise = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<T>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    job: () => {
      started();
      return done;
    },
    started: startedPromise,
    finish,
    fail,
  };
}

const options = { concurrency: 2, queueSize: 1, queueWaitMs: 60_000, what: 'test jobs', retryAfterSeconds: 3 };

test('at most `concurrency` jobs run; one waits in line; the next is refused resource_exhausted with Retry-After', async (t) => {
  const outcomes: PoolOutcome[] = [];
  const pool = new WorkPool(options, (outcome) => outcomes.push(outcome));
  const [a, b, c, d] = [gate<string>(), gate<string>(), gate<string>(), gate<string>()];
  const ra = pool.run('a', a.job);
  const rb = pool.run('b', b.job);
  const rc = pool.run('c', c.job);
  await Promise.all([a.started, b.started]);
  t.is(pool.running, 2);
  t.is(pool.queued, 1);
  const refused = await t.throwsAsync(pool.run('d', d.job), { instanceOf: AppError });
  t.is(refused.code, 'resource_exhausted');
  t.is(refused.retryAfterSeconds, 3);
  t.regex(refused.message, /all test jobs are in use and 1 jobs already wait for them; try again in 3 s/);
  a.finish('A');
  t.is(await ra, 'A');
  await c.started;
  b.finish('B');
  c.finish('C');
  t.deepEqual(await Promise.all([rb, rc]), ['B', 'C']);
  t.is(pool.running, 0);
  t.deepEqual(outcomes, ['started', 'started', 'queue_full', 'started']);
});

test('asks of one key share one run, its result and its failure; a later ask runs again', async (t) => {
  const outcomes: PoolOutcome[] = [];
  const pool = new WorkPool(options, (outcome) => outcomes.push(outcome));
  let runs = 0;
  const first = gate<number>();
  const job = () => {
    runs += 1;
    return first.job();
  };
  const asks = [pool.run('same', job), pool.run('same', job), pool.run('same', job)];
  first.finish(7);
  t.deepEqual(await Promise.all(asks), [7, 7, 7]);
  t.is(runs, 1);
  const failing = gate<number>();
  const failed = [pool.run('same', failing.job), pool.run('same', failing.job)];
  failing.fail(new Error('broken'));
  for (const ask of failed) await t.throwsAsync(ask, { message: 'broken' });
  t.is(await pool.run('same', () => Promise.resolve(8)), 8, 'a failure is not kept');
  t.deepEqual(outcomes.sort(), ['joined', 'joined', 'joined', 'started', 'started', 'started']);
});

test('a job that waited longer than queueWaitMs is refused resource_exhausted and never runs', async (t) => {
  const pool = new WorkPool({ ...options, concurrency: 1, queueWaitMs: 50 });
  const running = gate<void>();
  const held = pool.run('running', running.job);
  let ran = false;
  const waited = await t.throwsAsync(
    pool.run('waiting', () => {
      ran = true;
      return Promise.resolve();
    }),
    { instanceOf: AppError },
  );
  t.is(waited.code, 'resource_exhausted');
  t.regex(waited.message, /stayed in use/);
  t.is(pool.queued, 0);
  running.finish();
  await held;
  t.false(ran);
  t.is(pool.running, 0);
});

test('a queue of 0 refuses as soon as every place runs', async (t) => {
  const pool = new WorkPool({ ...options, concurrency: 1, queueSize: 0 });
  const running = gate<void>();
  const held = pool.run('a', running.job);
  await t.throwsAsync(pool.run('b', () => Promise.resolve()), { message: /all test jobs are in use/ });
  running.finish();
  await held;
});
