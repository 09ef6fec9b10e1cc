import test from 'ava';
import { hostsBucketName, ownersBucketName } from '../../../actors/runtime/names.js';
import { committedValue } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { caller, processPool } from './fixture.js';

test('SIGTERM drains a host under load: its actors move on, nothing is lost, no caller sees an error', async (t) => {
  const { prefix, pgUrl, hosts, nc, client } = await processPool(t, 'drain', ['a', 'b', 'c']);
  let stop = false;
  let writers: Promise<unknown> = Promise.resolve();
  t.teardown(async () => {
    stop = true;
    await writers;
  });
  const js = nc.jetstream();
  const liveness = await js.views.kv(hostsBucketName(prefix), { bindOnly: true });
  const owners = await js.views.kv(ownersBucketName(prefix, 'counter'), { bindOnly: true });

  const ids = Array.from({ length: 9 }, (_, i) => `busy${i}`);
  const placement = new Map<string, string>();
  for (const id of ids) placement.set(id, (await client.send<CounterResult>('counter', id, { op: 'get' }, { caller })).result.host);
  // Drain the host with the most actors (at least one, as there are three hosts for nine).
  const drained = hosts
    .map((host) => ({ host, count: [...placement.values()].filter((owner) => owner === host.hostId).length }))
    .sort((x, y) => y.count - x.count)[0]?.host;
  if (!drained) throw new Error('no host');
  const drainedIds = ids.filter((id) => placement.get(id) === drained.hostId);

  // One writer per actor, each sending increments one after another until told to stop.
  const acknowledged = new Map<string, number[]>(ids.map((id) => [id, []]));
  const servedAfterExit = new Map<string, string>();
  const errors: string[] = [];
  let exited = false;
  const writer = async (id: string): Promise<void> => {
    while (!stop) {
      try {
        const reply = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 10_000 });
        acknowledged.get(id)?.push(reply.result.value ?? -1);
        if (exited) servedAfterExit.set(id, reply.result.host);
      } catch (err) {
        errors.push(`${id}: ${err instanceof Error ? err.message : String(err)}`);
        return;
      }
    }
  };
  writers = Promise.all(ids.map((id) => writer(id)));
  await eventually(() => ids.every((id) => (acknowledged.get(id)?.length ?? 0) >= 5), 10_000, 'writers under way');

  const result = await drained.stop();
  exited = true;
  t.deepEqual(result, { code: 0, signal: null }, 'the drained host exits cleanly');
  const key = await liveness.get(drained.hostId);
  // Marked stopped under a fresh incarnation, not left to expire: its leftovers are free at once.
  t.is(key?.json<{ stopped?: boolean }>().stopped, true, 'its liveness key was marked stopped');
  await drained.waitFor((line) => line.event === 'drained', 1_000, 'drained');
  const ended = drained.matching((line) => line.event === 'deactivated');
  t.deepEqual(
    ended.map((line) => line.id).sort(),
    [...drainedIds].sort(),
    'every actor of the drained host was deactivated',
  );
  t.true(ended.every((line) => line.reason === 'drain'));

  await eventually(() => errors.length > 0 || ids.every((id) => servedAfterExit.has(id)), 15_000, 'every actor answering after the drain');
  stop = true;
  await writers;
  t.deepEqual(errors, [], 'no caller saw an error');

  for (const id of ids) {
    const values = acknowledged.get(id) ?? [];
    t.is(await committedValue(pgUrl, id), values.length, `${id}: every acknowledged increment committed once`);
    t.deepEqual(values, Array.from({ length: values.length }, (_, n) => n + 1), `${id}: increments acknowledged in order`);
  }
  for (const id of drainedIds) {
    t.not(servedAfterExit.get(id), drained.hostId);
    const record = await owners.get(id);
    t.not(record?.json<{ hostId: string }>().hostId, drained.hostId, `${id} is owned elsewhere now`);
  }
});
