import test from 'ava';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { caller, localSpace } from './fixture.js';

test('when one fence runs out of event numbers the lease is renewed and seqs keep growing', async (t) => {
  // A long lease: bursts of 25,000 events can hold this process's event loop for seconds on a
  // loaded machine, and a lapsed lease (a second activation) is liveness, not what this tests.
  const { local, client } = await localSpace(t, 'seq', { leaseTtlMs: 15_000 });
  const id = 'chatty';

  const before = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  // Past 2^19 events in one fence the runtime renews the lease between turns. Moderate turns:
  // a single turn publishing hundreds of thousands of events would stall the event loop.
  let last = before.seq;
  for (let i = 0; i < 24; i++) {
    const reply = await client.send<CounterResult>('counter', id, { op: 'publish', count: 25_000 }, { caller, timeoutMs: 30_000 });
    const seqs = reply.result.seqs ?? [];
    t.true((seqs[0] ?? 0) > last, `burst ${i} starts above everything before it`);
    t.true(seqs.every((seq, n) => n === 0 || seq === (seqs[n - 1] ?? 0) + 1), `burst ${i} is gapless`);
    last = seqs[seqs.length - 1] ?? last;
  }
  const after = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  t.true(BigInt(after.result.fence ?? '0') > BigInt(before.result.fence ?? '0'), 'the fence was renewed');
  t.true(after.seq >= last);
  t.is(local.lines.filter((line) => line.event === 'activated' && line.id === id).length, 1, 'within one activation');
});
