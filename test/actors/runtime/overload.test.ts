import test from 'ava';
import { AppError } from '../../../errors/app-error.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { caller, processPool } from './fixture.js';

test('an overloaded host sheds new commands as busy, runs what it took exactly once, and keeps its lease', async (t) => {
  // Default client options: its retries after a try timeout are part of what an overload sends.
  const {
    hosts: [host],
    client,
  } = await processPool(t, 'overload', ['host'], { maxQueueWaitMs: 20 });
  if (!host) throw new Error('no host');
  const ids = Array.from({ length: 20 }, (_, i) => `hot${i}`);
  await Promise.all(ids.map((id) => client.send('counter', id, { op: 'get' }, { caller })));

  // 3,000 commands of 2 ms CPU each: 6 s of work arriving at once on one host.
  const send = (n: number) => client.send<CounterResult>('counter', ids[n % ids.length] ?? '', { op: 'spin', ms: 2, n }, { caller, timeoutMs: 60_000 });
  const first = Array.from({ length: 3000 }, (_, n) => send(n));
  // More once the host has answered something, i.e. while the rest of that backlog waits.
  await Promise.race(first.map((sent) => sent.then(() => undefined, () => undefined)));
  const second = Array.from({ length: 200 }, (_, i) => send(10_000 + i));
  const outcomes = await Promise.allSettled([...first, ...second]);

  const ran: number[] = [];
  let shed = 0;
  outcomes.forEach((outcome, i) => {
    const n = i < 3000 ? i : 10_000 + i - 3000;
    if (outcome.status === 'fulfilled') {
      ran.push(n);
      return;
    }
    const err: unknown = outcome.reason;
    t.true(err instanceof AppError && err.code === 'busy' && /overloaded/.test(err.message), `command ${n}: only "busy, overloaded" may fail, got ${String(err)}`);
    shed += 1;
  });
  t.log(`${ran.length} ran, ${shed} shed`);
  t.true(shed > 0, 'the host shed commands while its backlog was older than 20 ms');
  t.true(ran.length > 0, 'and ran the ones it took');

  t.deepEqual(host.matching((line) => line.msg === 'host lost its liveness'), [], `the host kept its lease throughout:\n${host.output()}`);
  // What ran, ran once; what was shed never ran.
  const logs = await Promise.all(ids.map((id) => client.send<CounterResult>('counter', id, { op: 'get' }, { caller })));
  const applied = logs.flatMap((reply) => reply.result.log ?? []);
  t.deepEqual([...applied].sort((a, b) => a - b), [...ran].sort((a, b) => a - b));
});
