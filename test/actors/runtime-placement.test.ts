import test from 'ava';
import { ActorClient } from '../../actors/runtime/client.js';
import { actorEvents, ActorHostProcess, connectNats, counterDatabase, uniquePrefix } from '../fixtures/actor-host-process.js';
import type { CounterResult } from '../fixtures/counter-actor.js';

const caller = { userId: 'tester' };

test('three hosts racing to activate the same ids end with exactly one activation each', async (t) => {
  const prefix = uniquePrefix('place');
  const pgUrl = await counterDatabase('runtime_placement');
  const hosts = await Promise.all(['a', 'b', 'c'].map((name) => ActorHostProcess.start({ hostId: `${prefix}-${name}`, prefix, pgUrl })));
  const nc = await connectNats(`${prefix}-client`);
  t.teardown(async () => {
    await nc.close();
    await Promise.all(hosts.map((host) => host.kill()));
  });
  const client = new ActorClient(nc, prefix);

  const ids = Array.from({ length: 10 }, (_, i) => `race${i}`);
  // Every id gets 30 concurrent first commands: each finds no activation, asks the pool to
  // activate, and the pool's members compete for the id.
  const replies = await Promise.all(
    ids.map((id) =>
      Promise.all(Array.from({ length: 30 }, () => client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 10_000 }))),
    ),
  );

  ids.forEach((id, i) => {
    const activations = actorEvents(hosts, 'activated', id);
    t.is(activations.length, 1, `${id} was activated once`);
    const servedBy = new Set((replies[i] ?? []).map((reply) => reply.result.host));
    t.deepEqual([...servedBy], [activations[0]?.host], `${id}: every command was answered by its one activation`);
    t.deepEqual(
      (replies[i] ?? []).map((reply) => reply.result.value).sort((a, b) => (a ?? 0) - (b ?? 0)),
      Array.from({ length: 30 }, (_, n) => n + 1),
      `${id}: 30 increments, each applied once`,
    );
  });
});

test('actors activated one after another spread over the hosts of the pool', async (t) => {
  const prefix = uniquePrefix('spread');
  const pgUrl = await counterDatabase('runtime_spread');
  const hosts = await Promise.all(['a', 'b', 'c'].map((name) => ActorHostProcess.start({ hostId: `${prefix}-${name}`, prefix, pgUrl })));
  const nc = await connectNats(`${prefix}-client`);
  t.teardown(async () => {
    await nc.close();
    await Promise.all(hosts.map((host) => host.kill()));
  });
  const client = new ActorClient(nc, prefix);

  const perHost = new Map<string, number>();
  for (let i = 0; i < 40; i++) {
    const reply = await client.send<CounterResult>('counter', `room${i}`, { op: 'get' }, { caller });
    perHost.set(reply.result.host, (perHost.get(reply.result.host) ?? 0) + 1);
  }
  t.log('actors per host', Object.fromEntries(perHost));
  // NATS hands each activate request to a random member of the queue group; 40 actors that
  // miss one of three hosts entirely would be a 1-in-3-million draw.
  t.is(perHost.size, 3, `every host got actors: ${JSON.stringify([...perHost])}`);
});
