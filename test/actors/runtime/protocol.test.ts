/**
 * The wire rules of docs/2026-11-22-actor-protocol.md: envelope versions, seq that never goes
 * backwards for subscribers, and payloads too large for NATS answered as errors.
 */
import test from 'ava';
import type { NatsConnection } from 'nats';
import { isAppError } from '../../../errors/app-error.js';
import type { EventEnvelope } from '../../../actors/runtime/actor-type.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorEvents } from '../../../actors/runtime/events.js';
import { ActorHost } from '../../../actors/runtime/host.js';
import { PROTOCOL_VERSION } from '../../../actors/runtime/wire.js';
import { createLogger } from '../../../observability/logger.js';
import { createPool } from '../../../postgres/pool.js';
import { connectNats, uniquePrefix } from '../../fixtures/actor-host-process.js';
import { counterType, type CounterResult } from '../../fixtures/counter-actor.js';
import { withDeadline } from '../../fixtures/deadline.js';
import { caller, counterSpace, localSpace } from './fixture.js';
const encoder = new TextEncoder();
const decoder = new TextDecoder();
const EVENTS_PER_FENCE = 2 ** 20;

/** Collects events of one listener and lets the test wait until one matches. */
function collector(): { listener: (event: EventEnvelope) => void; events: EventEnvelope[]; until(test: (e: EventEnvelope) => boolean, what: string): Promise<void> } {
  const events: EventEnvelope[] = [];
  const waiters: Array<{ test: (e: EventEnvelope) => boolean; resolve: () => void }> = [];
  return {
    events,
    listener: (event) => {
      events.push(event);
      for (const waiter of [...waiters]) {
        if (waiter.test(event)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    },
    until: (test, what) =>
      events.some(test) ? Promise.resolve() : withDeadline(new Promise<void>((resolve) => waiters.push({ test, resolve })), 5_000, what),
  };
}

function envelope(fields: Record<string, unknown>): Uint8Array {
  return encoder.encode(JSON.stringify({ id: `raw-${Math.random()}`, command: { op: 'get' }, caller, deadline: Date.now() + 5_000, ...fields }));
}

test('a command of an unknown protocol version gets a final error naming both versions; none or 1 is served', async (t) => {
  const { prefix, local, client } = await localSpace(t, 'protocol_cmd');
  const id = 'versioned';
  // Activates the actor, so its command subject has a responder for the raw requests.
  await client.send('counter', id, { op: 'get' }, { caller });
  const subject = `${prefix}.counter.${id}.cmd`;

  const newer = JSON.parse(decoder.decode((await local.nc.request(subject, envelope({ v: 2 }), { timeout: 5_000 })).data)) as Record<string, unknown>;
  t.like(newer, { ok: false, error: { code: 'unavailable' } });
  t.regex((newer.error as { message: string }).message, /protocol version 2 is not supported .*\(it speaks 1\)/);
  t.false('retryAfterMs' in newer, 'final: the client must not re-resolve and retry it');

  // Builds before the field sent no `v`: that is version 1.
  const unversioned = JSON.parse(decoder.decode((await local.nc.request(subject, envelope({}), { timeout: 5_000 })).data)) as Record<string, unknown>;
  t.like(unversioned, { ok: true, result: { host: `${prefix}-host` } });
  const current = JSON.parse(decoder.decode((await local.nc.request(subject, envelope({ v: PROTOCOL_VERSION }), { timeout: 5_000 })).data)) as Record<string, unknown>;
  t.like(current, { ok: true });
});

test('listeners get no event of an unknown protocol version, and seq never goes backwards for them', async (t) => {
  const prefix = uniquePrefix('protoevt');
  const [gateway, oldOwner] = await Promise.all([connectNats(`${prefix}-gateway`), connectNats(`${prefix}-old-owner`)]);
  t.teardown(() => Promise.all([gateway.close(), oldOwner.close()]));
  const events = new ActorEvents(gateway, prefix);
  const first = collector();
  const second = collector();
  events.subscribe('counter', 'raw', first.listener);
  events.subscribe('counter', 'raw', second.listener);
  await gateway.flush();

  // What owners with fences 2 and 3 would publish, in an order a failover can produce: the new
  // owner's event, then a late one of the old owner, a repeat, and a newer build's event.
  const seqOf = (fence: number, counter: number): number => fence * EVENTS_PER_FENCE + counter;
  const subject = `${prefix}.counter.raw.evt`;
  const publish = (seq: number, extra: Record<string, unknown> = {}): void =>
    oldOwner.publish(subject, encoder.encode(JSON.stringify({ seq, at: Date.now(), event: { seq }, ...extra })));
  publish(seqOf(3, 1), { v: 1 });
  publish(seqOf(2, 7));
  publish(seqOf(3, 1));
  publish(seqOf(4, 1), { v: 2 });
  publish(seqOf(3, 2)); // no `v`: version 1, and above everything delivered
  await oldOwner.flush();
  await first.until((e) => e.seq === seqOf(3, 2), 'the last event');
  await second.until((e) => e.seq === seqOf(3, 2), 'the last event (second listener)');
  t.deepEqual(first.events.map((e) => e.seq), [seqOf(3, 1), seqOf(3, 2)]);
  t.deepEqual(second.events.map((e) => e.seq), [seqOf(3, 1), seqOf(3, 2)], 'listeners of one actor share its highest seq');

  // A listener that joins later gets only what is newer still.
  const late = collector();
  events.subscribe('counter', 'raw', late.listener);
  publish(seqOf(3, 2));
  publish(seqOf(5, 1));
  await oldOwner.flush();
  await late.until((e) => e.seq === seqOf(5, 1), 'the newest event');
  t.deepEqual(late.events.map((e) => e.seq), [seqOf(5, 1)]);
});

test('events of a real activation all reach listeners, in order, with the protocol version', async (t) => {
  const { prefix, local, client } = await localSpace(t, 'protocol_seq');
  const events = new ActorEvents(local.nc, prefix);
  const seen = collector();
  events.subscribe('counter', 'steady', seen.listener);
  await local.nc.flush();
  const first = await client.send<CounterResult>('counter', 'steady', { op: 'publish', count: 5 }, { caller });
  const second = await client.send<CounterResult>('counter', 'steady', { op: 'publish', count: 3 }, { caller });
  const seqs = [...(first.result.seqs ?? []), ...(second.result.seqs ?? [])];
  await seen.until((e) => e.seq === seqs.at(-1), 'the eighth event');
  t.deepEqual(seen.events.map((e) => e.seq), seqs);
  t.true(seen.events.every((e) => e.v === PROTOCOL_VERSION));
});

test('a reply larger than NATS max_payload reaches the caller as an error, and the actor carries on', async (t) => {
  const { local, client } = await localSpace(t, 'protocol_reply');
  const maxPayload = local.nc.info?.max_payload ?? 1024 * 1024;
  // Each command fits; the counter's `get` then answers its whole log, three of them.
  const chunk = 'x'.repeat(Math.floor(maxPayload * 0.4));
  for (let i = 0; i < 3; i++) await client.send('counter', 'hoarder', { op: 'append', n: chunk }, { caller });

  const err = await t.throwsAsync(client.send('counter', 'hoarder', { op: 'get' }, { caller }));
  t.true(isAppError(err) && err.code === 'internal', String(err));
  t.regex(err?.message ?? '', new RegExp(`is \\d+ bytes, over the NATS max_payload of ${maxPayload} bytes`));
  const after = await client.send<CounterResult>('counter', 'hoarder', { op: 'inc' }, { caller });
  t.is(after.result.value, 1, 'the activation still answers');
});

/**
 * The test NATS server allows 1 MiB, and a command over it cannot be sent at all. A host whose
 * real connection reports a smaller `max_payload` makes an event over it from a command that fits.
 */
function withMaxPayload(nc: NatsConnection, maxPayload: number): NatsConnection {
  return new Proxy(nc, {
    get(target, property, receiver) {
      if (property === 'info') return target.info ? { ...target.info, max_payload: maxPayload } : undefined;
      const value = Reflect.get(target, property, receiver) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

test('an event larger than NATS max_payload fails the turn that publishes it and takes no seq', async (t) => {
  // A host of its own, on a connection that reports a smaller max_payload.
  const { prefix, pgUrl } = await counterSpace('protocol_event');
  const hostConnection = await connectNats(`${prefix}-host`);
  const pool = createPool({ url: pgUrl, max: 2, applicationName: `${prefix}-host` });
  const limit = 64 * 1024;
  const host = await ActorHost.start({
    nc: withMaxPayload(hostConnection, limit),
    prefix,
    hostId: `${prefix}-host`,
    types: [counterType({ pool, hostId: `${prefix}-host`, emit: () => undefined })],
    logger: createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'silent', destination: 'stderr' }),
  });
  const gateway = await connectNats(`${prefix}-gateway`);
  t.teardown(async () => {
    await gateway.close();
    await host.stop();
    await hostConnection.close();
    await pool.end();
  });
  const events = new ActorEvents(gateway, prefix);
  const seen = collector();
  events.subscribe('counter', 'loud', seen.listener);
  await gateway.flush();
  const client = new ActorClient(gateway, prefix);

  const before = await client.send<CounterResult>('counter', 'loud', { op: 'publish', count: 1 }, { caller });
  const err = await t.throwsAsync(client.send('counter', 'loud', { op: 'append', n: 'y'.repeat(limit) }, { caller }));
  t.true(isAppError(err) && err.code === 'internal', String(err));
  t.regex(err?.message ?? '', new RegExp(`is \\d+ bytes, over the NATS max_payload of ${limit} bytes`));
  const after = await client.send<CounterResult>('counter', 'loud', { op: 'publish', count: 1 }, { caller });
  t.is(after.result.seqs?.[0], (before.result.seqs?.[0] ?? 0) + 1, 'the refused event used no seq');
  await seen.until((e) => e.seq === after.result.seqs?.[0], 'the event after the refused one');
  t.deepEqual(seen.events.map((e) => e.seq), [...(before.result.seqs ?? []), ...(after.result.seqs ?? [])]);
});

test('a command larger than NATS max_payload is refused at once, naming the field, instead of retried to its deadline', async (t) => {
  const nc = await connectNats(uniquePrefix('bigcmd'));
  t.teardown(() => nc.close());
  const client = new ActorClient(nc, uniquePrefix('bigcmd'));
  const huge = 'x'.repeat((nc.info?.max_payload ?? 1024 * 1024) + 1);
  const err = await t.throwsAsync(withDeadline(client.send('counter', 'c', { op: 'append', text: huge }, { caller, timeoutMs: 30_000 }), 2_000, 'the refusal'));
  t.true(isAppError(err));
  t.is(isAppError(err) ? err.code : undefined, 'invalid_argument');
  t.is(isAppError(err) ? err.issues[0]?.key : undefined, 'command');
});
