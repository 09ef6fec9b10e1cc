/**
 * The runtime deduplicates commands by envelope id and caller together (command-key.ts): two
 * callers who send the same envelope id send two commands, in one activation and in the next
 * (where the actor's durable idempotency, keyed by `meta.commandId`, answers retries), while a
 * retry by the same caller still runs once.
 */
import test from 'ava';
import { ActorClient } from '../../../actors/runtime/client.js';
import { committedValue } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { localSpace } from './fixture.js';

const alice = { userId: 'alice' };
const mallory = { userId: 'mallory' };

test("two callers' identical envelope ids are two commands; each caller's retry runs once, across activations too", async (t) => {
  const { prefix, pgUrl, local: first, client, addHost } = await localSpace(t, 'command_key');
  const id = 'shared-id';
  const inc = (caller: { userId: string }, commandId: string) => client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, commandId });

  t.is((await inc(alice, 'inc-1')).result.value, 1);
  // Mallory's command with Alice's id runs as his own; it does not get her reply.
  t.is((await inc(mallory, 'inc-1')).result.value, 2);
  // Alice's retry is answered with her first reply, and so is Mallory's.
  t.is((await inc(alice, 'inc-1')).result.value, 1);
  t.is((await inc(mallory, 'inc-1')).result.value, 2);
  t.is(await committedValue(pgUrl, id), 2);

  // A later activation, on another host: the replies it knows come from the actor's durable
  // records, keyed by what the runtime gave it as the command id.
  await first.host.drain();
  const second = await addHost('second');
  const next = new ActorClient(second.nc, prefix);
  const incNext = (caller: { userId: string }, commandId: string) => next.send<CounterResult>('counter', id, { op: 'inc' }, { caller, commandId });
  t.is((await incNext({ userId: 'eve' }, 'inc-1')).result.value, 3);
  t.is((await incNext(alice, 'inc-1')).result.value, 1);
  t.is((await incNext(mallory, 'inc-1')).result.value, 2);
  t.is(await committedValue(pgUrl, id), 3);
});
