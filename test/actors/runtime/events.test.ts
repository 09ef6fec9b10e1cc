import test from 'ava';
import type { NatsConnection } from 'nats';
import type { EventEnvelope } from '../../../actors/runtime/actor-type.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { connectNats } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { caller, localSpace } from './fixture.js';

/** The gateway's real NATS connection, with its subscribe() calls counted. */
function countingSubscribes(nc: NatsConnection): { nc: NatsConnection; subjects: string[] } {
  const subjects: string[] = [];
  const counted = new Proxy(nc, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property === 'subscribe') {
        return (subject: string, options?: Parameters<NatsConnection['subscribe']>[1]) => {
          subjects.push(subject);
          return target.subscribe(subject, options);
        };
      }
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { nc: counted, subjects };
}

/** Collects events of one listener and lets the test wait for the nth. */
function collector(): { listener: (event: EventEnvelope) => void; events: EventEnvelope[]; next(count: number): Promise<void> } {
  const events: EventEnvelope[] = [];
  let waiting: { count: number; resolve: () => void } | undefined;
  return {
    events,
    listener: (event) => {
      events.push(event);
      if (waiting && events.length >= waiting.count) waiting.resolve();
    },
    next: (count) =>
      events.length >= count ? Promise.resolve() : withDeadline(new Promise<void>((resolve) => (waiting = { count, resolve })), 5_000, `${count} events`),
  };
}

test('local listeners of one actor share one NATS subscription, released with the last of them', async (t) => {
  const { prefix } = await localSpace(t, 'events');
  const gatewayConnection = await connectNats(`${prefix}-gateway`);
  t.teardown(() => gatewayConnection.close());
  const gateway = countingSubscribes(gatewayConnection);
  const events = new ActorEvents(gateway.nc, prefix);
  const client = new ActorClient(gatewayConnection, prefix);
  const id = 'shared';

  const first = collector();
  const second = collector();
  const stopFirst = events.subscribe('counter', id, first.listener);
  const stopSecond = events.subscribe('counter', id, second.listener);
  t.is(gateway.subjects.length, 1, 'the second listener reuses the subscription');
  t.is(events.subscriptionCount(), 1);
  t.is(events.listenerCount('counter', id), 2);
  await gatewayConnection.flush();

  const published = await client.send<CounterResult>('counter', id, { op: 'publish', count: 3 }, { caller });
  await first.next(3);
  await second.next(3);
  t.deepEqual(first.events.map((e) => e.seq), published.result.seqs);
  t.deepEqual(second.events.map((e) => e.seq), published.result.seqs, 'each listener gets each event once');

  stopFirst();
  stopFirst();
  t.is(events.listenerCount('counter', id), 1, 'stopping twice removes one listener only');
  await client.send('counter', id, { op: 'publish', count: 1 }, { caller });
  await second.next(4);
  t.is(first.events.length, 3, 'a stopped listener gets nothing more');

  // Another actor gets a subscription of its own.
  const other = collector();
  const stopOther = events.subscribe('counter', 'other', other.listener);
  t.deepEqual(gateway.subjects, [`${prefix}.counter.${id}.evt`, `${prefix}.counter.other.evt`]);

  stopSecond();
  t.is(events.subscriptionCount(), 1, 'the last listener of an actor closes its subscription');
  stopOther();
  t.is(events.subscriptionCount(), 0);

  // Subscribing again after the last one left opens a fresh subscription that works.
  const again = collector();
  const stopAgain = events.subscribe('counter', id, again.listener);
  t.is(gateway.subjects.length, 3);
  await gatewayConnection.flush();
  const later = await client.send<CounterResult>('counter', id, { op: 'publish', count: 1 }, { caller });
  await again.next(1);
  t.deepEqual(again.events.map((e) => e.seq), later.result.seqs);
  stopAgain();
});

test('a listener that throws does not keep the event from the others', async (t) => {
  const { prefix, local, client } = await localSpace(t, 'events_throw');
  const events = new ActorEvents(local.nc, prefix);
  const healthy = collector();
  events.subscribe('counter', 'x', () => {
    throw new Error('a broken socket handler');
  });
  events.subscribe('counter', 'x', healthy.listener);
  await local.nc.flush();
  await client.send('counter', 'x', { op: 'publish', count: 2 }, { caller });
  await healthy.next(2);
  t.is(healthy.events.length, 2);
});
