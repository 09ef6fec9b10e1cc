import test from 'ava';
import { ownersBucketName } from '../../../actors/runtime/names.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { caller, localSpace } from './fixture.js';

test('an idle actor passivates, releases its id, and comes back with its state on the next command', async (t) => {
  const { prefix, local, client } = await localSpace(t, 'passivation', { idleTimeoutMs: 200 });
  const owners = await local.nc.jetstream().views.kv(ownersBucketName(prefix, 'counter'), { bindOnly: true });
  const id = 'sleepy';

  for (let i = 0; i < 3; i++) await client.send('counter', id, { op: 'inc' }, { caller });
  const before = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  t.is(before.result.value, 3);
  const record = await owners.get(id);
  t.is(record?.operation, 'PUT', 'an active actor has an ownership record');
  t.is(local.host.activeCount(), 1);

  const deactivated = await local.waitFor((line) => line.event === 'deactivated' && line.id === id, 10_000, 'idle passivation');
  t.is(deactivated.reason, 'idle');
  await eventually(async () => (await owners.get(id))?.operation === 'DEL', 5_000, 'ownership released');
  t.is(local.host.activeCount(), 0);
  t.deepEqual(local.host.activeByType(), { counter: 0 });

  const after = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  t.is(after.result.value, 3, 'state reloaded from PostgreSQL');
  t.true(BigInt(after.result.fence ?? '0') > BigInt(before.result.fence ?? '0'), 'the new activation has a higher fence');
  t.true(after.seq > before.seq, 'seqs keep growing across activations');
  t.is(local.lines.filter((line) => line.event === 'activated' && line.id === id).length, 2);
});
