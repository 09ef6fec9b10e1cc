import test from 'ava';
import { hostsBucketName } from '../../../actors/runtime/names.js';
import { actorEvents, committedValue } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { caller, processPool } from './fixture.js';

test('a paused owner loses the actor to another host; on resume its write is refused and it deactivates', async (t) => {
  const { prefix, pgUrl, hosts, nc, client } = await processPool(t, 'fencing', ['a', 'b']);
  // Runs before the pool's teardown: a paused host is woken before it is killed.
  t.teardown(() => {
    for (const host of hosts) host.signal('SIGCONT');
  });
  const liveness = await nc.jetstream().views.kv(hostsBucketName(prefix), { bindOnly: true });
  const id = 'contested';

  const first = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  const paused = hosts.find((host) => host.hostId === first.result.host);
  const other = hosts.find((host) => host.hostId !== first.result.host);
  if (!paused || !other) throw new Error('expected two hosts');

  // An increment that sleeps before writing: the owner is stopped in the middle of it.
  const slow = client.send<CounterResult>('counter', id, { op: 'slowInc', ms: 600 }, { caller, timeoutMs: 15_000 });
  await paused.waitFor((line) => line.event === 'slow-inc-started' && line.id === id, 5_000, 'slow increment started');
  paused.signal('SIGSTOP');

  // The client's retries find the owner silent; once its lease has expired the other host
  // takes the actor over (claiming a higher fence when it loads) and runs the increment.
  const reply = await slow;
  t.is(reply.result.host, other.hostId, 'the command was served by the new owner');
  t.is(reply.result.value, 1);
  t.is(await liveness.get(paused.hostId), null, 'the paused host has no liveness key any more');
  t.is(actorEvents([other], 'activated', id).length, 1);

  paused.signal('SIGCONT');
  // Resumed, the old activation finishes its increment: the write carries the old fence.
  const refused = await paused.waitFor((line) => line.event === 'fenced-write' && line.id === id, 10_000, 'refused write');
  t.is(refused.fence, first.result.fence);
  const deactivated = await paused.waitFor((line) => line.event === 'deactivated' && line.id === id, 10_000, 'old activation ends');
  t.is(deactivated.reason, 'fenced');
  await paused.waitFor((line) => line.msg === 'host liveness restored', 10_000, 'the resumed host rejoins');

  t.is(await committedValue(pgUrl, id), 1, 'only the new owner\'s increment is committed');
  const after = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  t.is(after.result.host, other.hostId);
  t.is(after.result.value, 1);
  t.true(BigInt(after.result.fence ?? '0') > BigInt(first.result.fence ?? '0'));

  // The resumed host, now a new incarnation, serves new actors again.
  let round = 0;
  await eventually(
    async () => {
      round += 1;
      const ids = Array.from({ length: 8 }, (_, i) => `fresh${round}x${i}`);
      const replies = await Promise.all(ids.map((fresh) => client.send<CounterResult>('counter', fresh, { op: 'get' }, { caller })));
      return replies.some((r) => r.result.host === paused.hostId);
    },
    10_000,
    'the resumed host taking new activations',
  );
});
