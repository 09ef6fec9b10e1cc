import test from 'ava';
import { ActorClient } from '../../../actors/runtime/client.js';
import { activateSubject } from '../../../actors/runtime/names.js';
import { actorEvents, connectNats } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { caller, processPool } from './fixture.js';

test('three hosts racing to activate the same ids end with exactly one activation each', async (t) => {
  const { prefix, hosts, client } = await processPool(t, 'placement', ['a', 'b', 'c']);
  // Three gateways: one client shares its activate requests per actor, so the race needs several.
  const more = await Promise.all(['b', 'c'].map((name) => connectNats(`${prefix}-client-${name}`)));
  t.teardown(() => Promise.all(more.map((nc) => nc.close())));
  const clients = [client, ...more.map((nc) => new ActorClient(nc, prefix))];
  const clientFor = (n: number): ActorClient => clients[n % clients.length] as ActorClient;

  const ids = Array.from({ length: 10 }, (_, i) => `race${i}`);
  // Every id gets 30 concurrent first commands from the three clients: each client finds no
  // activation, asks the pool to activate, and the pool's members compete for the id.
  const replies = await Promise.all(
    ids.map((id) =>
      Promise.all(
        Array.from({ length: 30 }, (_, n) => clientFor(n).send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 10_000 })),
      ),
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
  const { client } = await processPool(t, 'spread', ['a', 'b', 'c']);

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

test('concurrent commands to an inactive actor from one client share one activate request', async (t) => {
  const { prefix, nc } = await processPool(t, 'one_ask', ['host']);
  // A plain subscription sees every activate request the hosts' queue group gets.
  const asked: string[] = [];
  nc.subscribe(activateSubject(prefix, 'counter'), { callback: (_err, msg) => asked.push(msg.string()) });
  await nc.flush();

  // A long try timeout: a slow first activation must not count as a dead owner here.
  const client = new ActorClient(nc, prefix, { tryTimeoutMs: 5_000 });
  const replies = await Promise.all(Array.from({ length: 50 }, (_, n) => client.send<CounterResult>('counter', 'shared', { op: 'append', n }, { caller })));
  t.deepEqual(
    replies.map((reply) => reply.result.index).sort((a, b) => (a ?? 0) - (b ?? 0)),
    Array.from({ length: 50 }, (_, n) => n),
  );
  t.is(asked.length, 1, `one activate request for 50 commands: ${JSON.stringify(asked)}`);
});
