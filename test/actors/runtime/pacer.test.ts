import test from 'ava';
import { Pacer } from '../../../actors/runtime/pacer.js';

const never = (): void => {
  throw new Error('shed although nothing waited long');
};
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
/** Keeps the event loop busy, as turns that do not wait on I/O do. */
const spin = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};
const roomy = { sliceMs: 60_000, maxWaitMs: 60_000 };

test('up to perSlice deliveries start at once; the rest wait, in arrival order, with other work running between slices', async (t) => {
  const pacer = new Pacer({ perSlice: 3, ...roomy });
  const log: string[] = [];
  for (let i = 0; i < 10; i += 1) pacer.run(() => log.push(String(i)), never);
  setImmediate(() => log.push('other'));
  t.deepEqual(log, ['0', '1', '2']);
  t.is(pacer.backlog, 7);
  while (pacer.backlog > 0) await nextTurn();
  await nextTurn();
  t.deepEqual(log, ['0', '1', '2', '3', '4', '5', 'other', '6', '7', '8', '9']);
});

test('a delivery never overtakes one that waits, and the budget is back once the backlog is gone', async (t) => {
  const pacer = new Pacer({ perSlice: 2, ...roomy });
  const log: number[] = [];
  for (let i = 0; i < 3; i += 1) pacer.run(() => log.push(i), never);
  // Budget used and one waiting: a later delivery queues behind it.
  await Promise.resolve();
  pacer.run(() => log.push(3), never);
  t.deepEqual(log, [0, 1]);
  while (pacer.backlog > 0) await nextTurn();
  t.deepEqual(log, [0, 1, 2, 3]);
  await nextTurn();
  await nextTurn();
  pacer.run(() => log.push(4), never);
  t.deepEqual(log, [0, 1, 2, 3, 4], 'started at once when nothing waits');
});

test('once a slice has used its time, turns and deliveries wait for the next one, after other work', async (t) => {
  const pacer = new Pacer({ perSlice: 100, sliceMs: 5, maxWaitMs: 60_000 });
  const log: string[] = [];
  pacer.run(() => log.push('first'), never);
  t.is(pacer.pause(), undefined, 'time left: the next turn runs now');
  spin(6);
  const pause = pacer.pause();
  t.truthy(pause, 'slice used up: the activation waits');
  pacer.run(() => log.push('late'), never);
  t.deepEqual(log, ['first'], 'a delivery waits too');
  setImmediate(() => log.push('other'));
  await pause;
  log.push('resumed');
  await nextTurn();
  t.deepEqual(log, ['first', 'late', 'resumed', 'other']);
});

test('a slice starts waiting deliveries only while it has time left, at least one', async (t) => {
  const pacer = new Pacer({ perSlice: 100, sliceMs: 5, maxWaitMs: 60_000 });
  const slices: number[][] = [];
  let slice = 0;
  const tick = (): void => {
    slice += 1;
    if (pacer.backlog > 0) setImmediate(tick);
  };
  spin(6);
  setImmediate(tick);
  // Each start costs 3 ms: a 5 ms slice has room for two.
  for (let i = 0; i < 6; i += 1) {
    pacer.run(() => {
      (slices[slice] ??= []).push(i);
      spin(3);
    }, never);
  }
  while (pacer.backlog > 0) await nextTurn();
  const sizes = slices.filter((started) => started.length > 0).map((started) => started.length);
  t.true(sizes.every((size) => size <= 2), `starts per slice: ${JSON.stringify(slices)}`);
  t.deepEqual(slices.flat(), [0, 1, 2, 3, 4, 5], 'in arrival order');
});

test('deliveries are shed while a waiting one is older than maxWaitMs; what was taken still runs, in order', async (t) => {
  const pacer = new Pacer({ perSlice: 1, sliceMs: 60_000, maxWaitMs: 20 });
  const started: number[] = [];
  const shed: number[] = [];
  const deliver = (i: number): void => pacer.run(() => started.push(i), () => shed.push(i));
  deliver(0);
  deliver(1);
  deliver(2);
  t.deepEqual([started, shed], [[0], []], 'young backlog: queued');
  // Block the event loop past maxWaitMs, as a host that fell behind does.
  spin(30);
  deliver(3);
  t.deepEqual(shed, [3], 'shed while deliveries have waited 30 ms');
  while (pacer.backlog > 0) await nextTurn();
  t.deepEqual(started, [0, 1, 2], 'what was taken still ran, in order');
  await nextTurn();
  await nextTurn();
  deliver(4);
  t.deepEqual(started, [0, 1, 2, 4], 'taken again once nothing waits');
});

test('an activation that has waited longer than maxWaitMs for a slice makes the host shed', async (t) => {
  const pacer = new Pacer({ perSlice: 100, sliceMs: 1, maxWaitMs: 20 });
  pacer.run(() => undefined, never);
  spin(2);
  const pause = pacer.pause();
  t.truthy(pause);
  // The activation now waits for the next slice while the event loop stays busy.
  spin(30);
  let shed = false;
  pacer.run(never, () => (shed = true));
  t.true(shed, 'queued work 30 ms old: new deliveries are shed');
  await pause;
  // Two slices without an old yield: the host takes deliveries again.
  await nextTurn();
  await nextTurn();
  let started = false;
  pacer.run(() => (started = true), never);
  t.true(started);
});
