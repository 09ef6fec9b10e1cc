/**
 * The actor runtime on a three-node NATS cluster with `nats.replicas` 3: its buckets keep three
 * copies (the owners on file, host liveness in memory), an older single-copy bucket is given
 * three at start, and the promises hold while nodes die and restart under load: kill -9 of the
 * owners' stream leader, of the hosts' stream leader and of the JetStream meta leader, then a
 * rolling restart of all three. Real host processes, a real cluster (infra/stack.sh with
 * SVC_STACK_NATS_NODES=3); the invariants are the single-activation audit, exactly-once
 * increments and seq order (counter-load.ts). And a single server refuses three copies by name.
 */
import test from 'ava';
import { StorageType, type NatsConnection, type StreamInfo } from 'nats';
import { pino } from 'pino';
import { ActorHost } from '../../../actors/runtime/host.js';
import { AppError } from '../../../errors/app-error.js';
import { hostsBucketName, ownersBucketName } from '../../../actors/runtime/names.js';
import { connectNats, uniquePrefix } from '../../fixtures/actor-host-process.js';
import type { ActorType } from '../../../actors/runtime/actor-type.js';
import { COUNTER_TYPE } from '../../fixtures/counter-actor.js';
import { eventually } from '../../fixtures/deadline.js';
import { metaLeader, nodeNamed, stopNode, streamLeader, streamsCurrent } from '../../harness/nats-cluster.js';
import { startPrivateNatsCluster, type PrivateCluster } from '../../harness/stack.js';
import { answeredMore, checkInvariants, startLoad } from './counter-load.js';
import { processPool } from './fixture.js';

let cluster: PrivateCluster;
/** The counter type by name only: these tests open its buckets and never activate one. */
const UNUSED_COUNTER: ActorType = { name: COUNTER_TYPE, activate: () => Promise.reject(new Error('no activation in this test')) };

test.before(async () => {
  cluster = await startPrivateNatsCluster();
});
test.after.always(async () => {
  await cluster?.destroy();
});

async function streamInfo(nc: NatsConnection, bucket: string): Promise<StreamInfo> {
  const jsm = await nc.jetstreamManager();
  return jsm.streams.info(`KV_${bucket}`);
}

test.serial('the runtime keeps three copies of its buckets and its promises while cluster nodes are killed and restarted under load', async (t) => {
  t.timeout(300_000);
  const { prefix, pgUrl, hosts, nc } = await processPool(t, 'cluster_kill', ['a', 'b'], { natsUrl: cluster.url, replicas: 3, trace: true });
  const owners = ownersBucketName(prefix, 'counter');
  const hostsBucket = hostsBucketName(prefix);
  const ownersInfo = await streamInfo(nc, owners);
  t.is(ownersInfo.config.num_replicas, 3, 'the owners bucket has three copies');
  t.is(ownersInfo.config.storage, StorageType.File, 'the owners bucket is on file: its revisions are the fences');
  const hostsInfo = await streamInfo(nc, hostsBucket);
  t.is(hostsInfo.config.num_replicas, 3, 'the hosts bucket has three copies');
  t.is(hostsInfo.config.storage, StorageType.Memory);

  const load = startLoad(nc, prefix);
  t.teardown(() => load.stop().catch(() => undefined));
  await answeredMore(load, 200, 30_000, 'load under way');

  const victims: Array<[string, () => Promise<string | undefined>]> = [
    ["the owners stream's leader", () => streamLeader(nc, `KV_${owners}`)],
    ["the hosts stream's leader", () => streamLeader(nc, `KV_${hostsBucket}`)],
    ['the meta leader', () => metaLeader(cluster.nodes)],
  ];
  const buckets = [`KV_${owners}`, `KV_${hostsBucket}`];
  for (const [what, leaderName] of victims) {
    const node = nodeNamed(cluster.nodes, await leaderName());
    await stopNode(node, 'SIGKILL');
    t.log(`killed ${what}, ${node.name}`);
    await answeredMore(load, 200, 60_000, `actors served with ${what} dead`);
    await cluster.start();
    await eventually(() => streamsCurrent(nc, buckets), 60_000, `${node.name} caught up`);
    await answeredMore(load, 100, 30_000, `actors served after ${node.name} came back`);
  }

  // A rolling restart: each node in turn stops gracefully and comes back before the next goes.
  for (const node of cluster.nodes) {
    await stopNode(node, 'SIGTERM');
    await answeredMore(load, 100, 60_000, `actors served with ${node.name} restarting`);
    await cluster.start();
    await eventually(() => streamsCurrent(nc, buckets), 60_000, `${node.name} caught up`);
  }
  await answeredMore(load, 100, 30_000, 'actors served after the rolling restart');
  await load.stop();
  await checkInvariants(t, hosts, load, pgUrl);
});

test.serial('a host started with three copies raises an older single-copy owners bucket to three, keeping its records', async (t) => {
  const prefix = uniquePrefix('cluster_raise');
  const nc = await connectNats(`${prefix}-test`, cluster.url);
  t.teardown(() => nc.close());
  const old = await nc.jetstream().views.kv(ownersBucketName(prefix, 'counter'), { history: 1, replicas: 1 });
  await old.put('kept', new TextEncoder().encode('{}'));
  t.is((await streamInfo(nc, ownersBucketName(prefix, 'counter'))).config.num_replicas, 1);

  const logger = pino({ level: 'silent' });
  const host = await ActorHost.start({ nc, prefix, hostId: `${prefix}-host`, types: [UNUSED_COUNTER], logger, bucketReplicas: 3 });
  t.teardown(() => host.drain());
  const info = await streamInfo(nc, ownersBucketName(prefix, 'counter'));
  t.is(info.config.num_replicas, 3);
  t.is(info.state.messages, 1, 'the record written before is still there');
});

test.serial('three copies on a single NATS server are refused with the startup key named', async (t) => {
  const prefix = uniquePrefix('single_r3');
  const nc = await connectNats(`${prefix}-test`);
  t.teardown(() => nc.close());
  const logger = pino({ level: 'silent' });
  const error = await t.throwsAsync(
    ActorHost.start({ nc, prefix, hostId: `${prefix}-host`, types: [UNUSED_COUNTER], logger, bucketReplicas: 3 }),
  );
  t.regex(error?.message ?? '', /nats\.replicas must be at most the number of JetStream servers/);
  t.regex(error?.message ?? '', /non-clustered/);
  t.is((error as AppError | undefined)?.code, 'failed_precondition', 'a configuration error: a start with --wait does not wait for it');
});
