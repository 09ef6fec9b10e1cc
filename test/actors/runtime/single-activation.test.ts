/**
 * Single activation when the hosts bucket loses its keys all at once: a deleted stream, a NATS
 * restart. Owners keep serving until their own window ends, so no host may take their actors
 * over before then, whatever the bucket says. Real host processes, real NATS; the audit of the
 * hosts' `handled` lines proves no two activations of an id ever ran commands at once. And the
 * race a NATS restart under load once hit: an activation that finished loading while its host's
 * connection was down, played step by step on an in-process host.
 */
import test from 'ava';
import { pino } from 'pino';
import type { Actor, ActorType } from '../../../actors/runtime/actor-type.js';
import { ActorClient } from '../../../actors/runtime/client.js';
import { ActorHost } from '../../../actors/runtime/host.js';
import { activateSubject, hostKey, hostsBucketName } from '../../../actors/runtime/names.js';
import { decode, encode, parseActivateReply } from '../../../actors/runtime/wire.js';
import { handledLines, overlappingActivations } from '../../fixtures/activation-audit.js';
import { ActorHostProcess, committedValue, connectNats, uniquePrefix } from '../../fixtures/actor-host-process.js';
import type { CounterResult } from '../../fixtures/counter-actor.js';
import { eventually, withDeadline } from '../../fixtures/deadline.js';
import { startPrivateNats } from '../../harness/stack.js';
import { answeredMore, checkInvariants, startLoad } from './counter-load.js';
import { caller, counterSpace, processPool } from './fixture.js';

test.serial('a host whose liveness key vanished is not taken over while it may still be serving', async (t) => {
  const leaseTtlMs = 5000;
  const { prefix, pgUrl, hosts, nc, client, addHost } = await processPool(t, 'single_key_gone', ['a'], { leaseTtlMs, trace: true });
  const [owner] = hosts;
  if (!owner) throw new Error('no host');
  const id = 'k';
  t.is((await client.send<CounterResult>('counter', id, { op: 'get' }, { caller })).result.host, owner.hostId);
  const other = await addHost('b');

  // Right after one of the owner's heartbeats, its key vanishes: the owner learns of it only at
  // its next heartbeat (TTL/5 later) and serves until then.
  const kv = await nc.jetstream().views.kv(hostsBucketName(prefix));
  const watch = await kv.watch({ key: hostKey(owner.hostId) });
  let puts = 0;
  for await (const entry of watch) {
    if (entry.operation === 'PUT' && ++puts === 2) break;
  }
  watch.stop();
  await kv.delete(hostKey(owner.hostId));
  // Ask the pool to activate the actor many times at once: NATS hands some requests to the other host.
  const replies = await Promise.all(
    Array.from({ length: 24 }, async () => parseActivateReply(decode((await nc.request(activateSubject(prefix, 'counter'), encode({ id }), { timeout: 2_000 })).data))),
  );
  const takenOver = replies.filter((reply) => reply?.ok === true && reply.hostId === other.hostId);
  t.deepEqual(takenOver, [], 'no activate request was granted elsewhere while the owner may still serve');
  t.true(
    replies.some((reply) => reply?.ok === false && reply.owner === owner.hostId),
    'the other host answered that the owner may still be serving it',
  );
  // Commands keep flowing through the owner's loss and a takeover; nobody runs them twice at once.
  for (let i = 0; i < 30; i++) await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 20_000 });
  await owner.waitFor((line) => line.msg === 'host lost its liveness', 10_000, 'the owner noticed');
  for (let i = 0; i < 10; i++) await client.send<CounterResult>('counter', id, { op: 'inc' }, { caller, timeoutMs: 20_000 });
  t.deepEqual(overlappingActivations(handledLines(hosts)), []);
  t.is(await committedValue(pgUrl, id), 40);
});

for (const leaseTtlMs of [1500, 3000, 5000]) {
  test.serial(`deleting the hosts bucket's stream under load never lets two activations serve one id (lease ${leaseTtlMs} ms)`, async (t) => {
    const { prefix, pgUrl, hosts, nc } = await processPool(t, `single_gone_${leaseTtlMs}`, ['a', 'b'], { leaseTtlMs, trace: true });
    const load = startLoad(nc, prefix);
    t.teardown(() => load.stop().catch(() => undefined));

    await answeredMore(load, 200, 20_000, 'load under way');
    const jsm = await nc.jetstreamManager();
    await jsm.streams.delete(`KV_${hostsBucketName(prefix)}`);
    // Every host loses its liveness and starts over; keep the load on until all of them did
    // and the actors were served again from their new activations.
    await Promise.all(hosts.map((host) => host.waitFor((line) => line.msg === 'host liveness restored', 6 * leaseTtlMs, 'liveness restored')));
    await answeredMore(load, 400, 8 * leaseTtlMs, 'actors served again after the bucket came back');
    await load.stop();
    await checkInvariants(t, hosts, load, pgUrl);
  });

  test.serial(`restarting NATS under load never lets two activations serve one id (lease ${leaseTtlMs} ms)`, async (t) => {
    const nats = await startPrivateNats();
    t.teardown(() => nats.destroy());
    const { prefix, pgUrl, hosts, nc } = await processPool(t, `single_restart_${leaseTtlMs}`, ['a', 'b'], { leaseTtlMs, trace: true, natsUrl: nats.url });
    const load = startLoad(nc, prefix);
    t.teardown(() => load.stop().catch(() => undefined));

    await answeredMore(load, 200, 20_000, 'load under way');
    await nats.stop();
    await nats.start();
    await answeredMore(load, 400, 10 * leaseTtlMs + 10_000, 'actors served again after the restart');
    await load.stop();
    await checkInvariants(t, hosts, load, pgUrl);
  });
}

/**
 * An actor type whose first load waits at a gate the test opens; it records which activation
 * (by fence) ran each command, and how each one ended.
 */
function gatedType(): {
  type: ActorType;
  /** The fence of the first activation, once its load is waiting at the gate. */
  loading: Promise<bigint>;
  open(): void;
  handledBy: bigint[];
  /** Resolves when the activation of `fence` has been deactivated. */
  ended(fence: bigint): Promise<string>;
} {
  let open = (): void => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  let loadingAt = (_fence: bigint): void => undefined;
  const loading = new Promise<bigint>((resolve) => (loadingAt = resolve));
  let gated = true;
  const handledBy: bigint[] = [];
  const ends = new Map<bigint, { reason?: string; resolve?: (reason: string) => void }>();
  const type: ActorType = {
    name: 'gated',
    activate: async (ctx) => {
      const fence = ctx.fence;
      if (gated) {
        gated = false;
        loadingAt(fence);
        await gate;
      }
      const actor: Actor = {
        handle: () => {
          handledBy.push(fence);
          return Promise.resolve({ fence: fence.toString() });
        },
        idle: () => false,
        deactivate: (reason) => {
          const end = ends.get(fence) ?? {};
          ends.set(fence, { ...end, reason });
          end.resolve?.(reason);
          return Promise.resolve();
        },
      };
      return actor;
    },
  };
  const ended = (fence: bigint): Promise<string> => {
    const end = ends.get(fence);
    if (end?.reason !== undefined) return Promise.resolve(end.reason);
    return new Promise((resolve) => ends.set(fence, { resolve }));
  };
  return { type, loading, open: () => open(), handledBy, ended };
}

test.serial('an activation that finishes loading after its host lost the NATS connection is cut off, not served again after the reconnect', async (t) => {
  const nats = await startPrivateNats();
  t.teardown(() => nats.destroy());
  const prefix = uniquePrefix('single_loading');
  const gated = gatedType();
  const logLines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) });
  const hostNc = await connectNats(`${prefix}-host`, nats.url);
  const host = await ActorHost.start({ nc: hostNc, prefix, hostId: `${prefix}-host`, types: [gated.type], logger, leaseTtlMs: 1500 });
  const nc = await connectNats(`${prefix}-client`, nats.url);
  t.teardown(async () => {
    await nc.close();
    await host.stop();
    await hostNc.close();
  });

  // The host takes the id and starts loading the actor; the load waits at the gate.
  void nc.request(activateSubject(prefix, 'gated'), encode({ id: 'x' }), { timeout: 1_000 }).catch(() => undefined);
  const loadingFence = await withDeadline(gated.loading, 10_000, 'the actor started loading');
  // Its connection drops meanwhile: the host ends its incarnation, cutting off every activation...
  await nats.stop();
  await eventually(() => logLines.some((line) => line.msg === 'host lost its liveness'), 10_000, 'the host lost its liveness');
  // ...and only then does the load finish, while the incarnation that owns the id is over.
  gated.open();
  t.is(await withDeadline(gated.ended(loadingFence), 10_000, 'the activation that loaded under the lost incarnation was ended'), 'fenced');

  // Back on NATS the host is a new incarnation; the old one's record is taken over, not served.
  await nats.start();
  const reply = await new ActorClient(nc, prefix).send<{ fence: string }>('gated', 'x', {}, { caller, timeoutMs: 20_000 });
  t.true(BigInt(reply.result.fence) > loadingFence, 'the command ran in a newer activation');
  t.deepEqual(gated.handledBy.filter((fence) => fence === loadingFence), [], 'the activation of the lost incarnation ran nothing');
});

test.serial('a host with the id of a live host refuses to start; one restarted under its id after a crash starts once the old key expires', async (t) => {
  const { prefix, pgUrl } = await counterSpace('single_dup_id');
  const first = await ActorHostProcess.start({ hostId: `${prefix}-same`, prefix, pgUrl });
  t.teardown(() => first.kill());

  const duplicate = ActorHostProcess.start({ hostId: `${prefix}-same`, prefix, pgUrl });
  const refused = await t.throwsAsync(duplicate);
  t.regex(refused?.message ?? '', /another live actor host already uses host id ".*-same"/);
  t.is(first.matching((line) => line.msg === 'host lost its liveness').length, 0, 'the live host kept its liveness throughout');

  // A crash leaves the key until it expires; the restarted host waits for that instead of failing.
  await first.kill();
  const restarted = await ActorHostProcess.start({ hostId: `${prefix}-same`, prefix, pgUrl });
  t.teardown(() => restarted.kill());
  t.pass();
});

test.serial('chaos: NATS restarts, a kill -9 and a drain while commands flow; no overlap, nothing applied twice or lost, seq never backwards', async (t) => {
  const leaseTtlMs = 1500;
  const nats = await startPrivateNats();
  t.teardown(() => nats.destroy());
  // Hosts 1..3 start one after another; a fourth replaces the one killed.
  const pool = await processPool(t, 'single_chaos', [], { leaseTtlMs, trace: true, natsUrl: nats.url });
  const { prefix, pgUrl, hosts: everyHost, nc } = pool;
  let started = 0;
  const startHost = (): Promise<ActorHostProcess> => pool.addHost(String((started += 1)));
  const live = [await startHost(), await startHost(), await startHost()];
  const load = startLoad(nc, prefix);
  t.teardown(() => load.stop().catch(() => undefined));
  const settle = (what: string) => answeredMore(load, 150, 30_000, what);

  await settle('load under way');
  await nats.stop();
  await nats.start();
  await settle('served after the first NATS restart');
  await (live.shift() as ActorHostProcess).kill();
  live.push(await startHost());
  await settle('served after kill -9 of a host');
  await nats.stop();
  await nats.start();
  await settle('served after the second NATS restart');
  const drained = await (live.shift() as ActorHostProcess).stop();
  t.is(drained.code, 0, 'the drained host exited cleanly');
  await settle('served after a drain');
  await load.stop();
  await checkInvariants(t, everyHost, load, pgUrl);
});
