import test from 'ava';
import { Pacer } from '../../actors/runtime/pacer.js';

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('up to perTurn deliveries start at once; the rest wait, in arrival order, with other work running between slices', async (t) => {
  const pacer = new Pacer(3);
  const log: string[] = [];
  for (let i = 0; i < 10; i += 1) pacer.run(() => log.push(String(i)));
  setImmediate(() => log.push('other'));
  t.deepEqual(log, ['0', '1', '2']);
  t.is(pacer.backlog, 7);
  while (pacer.backlog > 0) await nextTurn();
  await nextTurn();
  t.deepEqual(log, ['0', '1', '2', '3', '4', '5', 'other', '6', '7', '8', '9']);
});

test('a delivery never overtakes one that waits, and the budget is back once the backlog is gone', async (t) => {
  const pacer = new Pacer(2);
  const log: number[] = [];
  for (let i = 0; i < 3; i += 1) pacer.run(() => log.push(i));
  // Budget used and one waiting: a later delivery queues behind it.
  await Promise.resolve();
  pacer.run(() => log.push(3));
  t.deepEqual(log, [0, 1]);
  while (pacer.backlog > 0) await nextTurn();
  t.deepEqual(log, [0, 1, 2, 3]);
  await nextTurn();
  pacer.run(() => log.push(4));
  t.deepEqual(log, [0, 1, 2, 3, 4], 'started at once when nothing waits');
});
