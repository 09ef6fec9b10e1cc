import test from 'ava';
import { hostsBucketName, ownersBucketName } from '../../../actors/runtime/names.js';
import { actorEvents, committedValue } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { caller, processPool } from './fixture.js';

test('after kill -9 of the owner, commands succeed from another host and no acknowledged increment is lost', async (t) => {
  const { pgUrl, hosts, client } = await processPool(t, 'failover', ['a', 'b', 'c']);
  const id = 'survivor';
  const inc = () => client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 10_000 });

  const acknowledged: number[] = [];
  let owner = '';
  for (let i = 0; i < 20; i++) {
    const reply = await inc();
    acknowledged.push(reply.result.value ?? -1);
    owner = reply.result.host;
  }
  const victim = hosts.find((host) => host.hostId === owner);
  if (!victim) throw new Error(`no host ${owner}`);

  // Three writers keep incrementing across the kill; every send must succeed.
  let killedAt = 0;
  let recovered: { ms: number; host: string } | undefined;
  const writer = async (): Promise<void> => {
    for (let i = 0; i < 15; i++) {
      const reply = await inc();
      acknowledged.push(reply.result.value ?? -1);
      if (killedAt > 0 && !recovered && reply.result.host !== owner) {
        recovered = { ms: performance.now() - killedAt, host: reply.result.host };
      }
    }
  };
  const writers = Promise.all([writer(), writer(), writer()]);
  await eventually(() => acknowledged.length >= 26, 10_000, 'writers under way');
  killedAt = performance.now();
  await victim.kill();
  await writers;

  t.truthy(recovered, 'commands were answered by another host after the kill');
  // Informational (timing is the benchmark's business): lease TTL + expiry lag + activation.
  t.log(`first reply from the new owner ${Math.round(recovered?.ms ?? 0)} ms after the kill (${recovered?.host})`);
  t.is(new Set(acknowledged).size, acknowledged.length, 'every acknowledged increment has its own value');
  t.is(await committedValue(pgUrl, id), acknowledged.length, 'every acknowledged increment is committed, none twice');
  const final = await client.send<CounterResult>('counter', id, { op: 'get' }, { caller });
  t.is(final.result.value, acknowledged.length);
  t.is(actorEvents(hosts, 'activated', id).filter((line) => line.host !== owner).length, 1, 'one new activation took over');
});

test('an expired lease really frees the id: the dead host\'s key vanishes and another host takes over', async (t) => {
  const { prefix, hosts, nc, client } = await processPool(t, 'expiry', ['a', 'b']);
  const js = nc.jetstream();
  const liveness = await js.views.kv(hostsBucketName(prefix), { bindOnly: true });
  const owners = await js.views.kv(ownersBucketName(prefix, 'counter'), { bindOnly: true });
  const id = 'orphan';

  const before = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller });
  const victim = hosts.find((host) => host.hostId === before.result.host);
  const survivor = hosts.find((host) => host.hostId !== before.result.host);
  if (!victim || !survivor) throw new Error('expected two hosts');
  const record = await owners.get(id);
  t.is(record?.json<{ hostId: string }>().hostId, victim.hostId);
  t.truthy(await liveness.get(victim.hostId), 'the owner holds a liveness key');

  await victim.kill();
  // Nobody touches the actor meanwhile: only the bucket max-age can remove the key.
  await eventually(async () => (await liveness.get(victim.hostId)) === null, 5_000, 'the dead host\'s liveness key expiring');
  t.truthy(await liveness.get(survivor.hostId), 'a live host keeps its key by heartbeating');
  const stale = await owners.get(id);
  t.is(stale?.json<{ hostId: string }>().hostId, victim.hostId, 'the ownership record still names the dead host');

  const after = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller });
  t.is(after.result.host, survivor.hostId);
  t.is(after.result.value, 2);
  const taken = await owners.get(id);
  t.is(taken?.json<{ hostId: string }>().hostId, survivor.hostId, 'the record was taken over');
  t.true((taken?.revision ?? 0) > (stale?.revision ?? 0), 'with a higher revision: a higher fence');
});

// A lease far longer than the sends' deadlines: only the connection rule (liveness-probe.ts)
// can explain a takeover within them, and only the lease may decide for a paused owner.
const LONG_LEASE_MS = 30_000;

test('a killed owner\'s actors move at once, long before its lease ends: NATS has closed its connection', async (t) => {
  const { hosts, client } = await processPool(t, 'crash', ['a', 'b'], { leaseTtlMs: LONG_LEASE_MS });
  const id = 'crashed';
  const before = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller });
  const victim = hosts.find((host) => host.hostId === before.result.host);
  if (!victim) throw new Error(`no host ${before.result.host}`);

  await victim.kill();
  const after = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 5_000 });
  t.not(after.result.host, victim.hostId);
  t.is(after.result.value, 2, 'the new owner loaded what the old one committed');
});

test('a paused owner (SIGSTOP) keeps its actors until its lease ends: it may still be serving', async (t) => {
  const { hosts, client } = await processPool(t, 'stall', ['a', 'b'], { leaseTtlMs: LONG_LEASE_MS });
  const id = 'stalled';
  const before = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller });
  const paused = hosts.find((host) => host.hostId === before.result.host);
  if (!paused) throw new Error(`no host ${before.result.host}`);

  paused.signal('SIGSTOP');
  // Its connection is open, so the probe is not answered rather than refused: nobody takes over.
  const during = await client.send('counter', id, { op: 'inc' }, { caller, timeoutMs: 3_000 }).then(
    () => 'answered',
    (err: { code?: string }) => err.code,
  );
  t.is(during, 'deadline_exceeded');
  paused.signal('SIGCONT');
  const after = await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 10_000 });
  t.is(after.result.host, paused.hostId, 'the owner, resumed within its lease, still serves its actor');
  t.true([2, 3].includes(after.result.value ?? 0), 'the increment sent while paused ran at most once');
});
