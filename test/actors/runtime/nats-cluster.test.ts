/**
 * The actor runtime on a three-node NATS cluster with `nats.replicas` 3: its buckets keep three
 * copies (the owners on file, host liveness in memory), an older single-copy bucket is given
 * three at start, and the promises hold while nodes die and restart under load: kill -9 of the
 * owners' stream leader, of the hosts' stream leader and of the JetStream meta leader, then a
 * rolling restart of all three. Real host processes, a real cluster (infra/stack.sh with
 * SVC_STACK_NATS_NODES=3); the invariants are the single-activation audit, exactly-once
 * increments and seq order (counter-load.ts). And a single server refuses three copies by name.
 */
import { readFile } from 'node:fs/promises';
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
import { startPrivateNatsCluster, type ClusterNode, type PrivateCluster } from '../../harness/stack.js';
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

function nodeNamed(name: string | undefined): ClusterNode {
  const node = cluster.nodes.find((candidate) => candidate.name === name);
  if (!node) throw new Error(`no node of the cluster is named ${String(name)}`);
  return node;
}

/** The JetStream meta leader as a node's monitor reports it. */
async function metaLeader(): Promise<string | undefined> {
  for (const node of cluster.nodes) {
    try {
      const jsz = (await (await fetch(`${node.monitorUrl}/jsz`)).json()) as { meta_cluster?: { leader?: string } };
      if (jsz.meta_cluster?.leader) return jsz.meta_cluster.leader;
    } catch {
      // That node is down; ask the next.
    }
  }
  return undefined;
}

async function killNode(node: ClusterNode): Promise<void> {
  const pid = Number((await readFile(node.pidFile, 'utf8')).trim());
  process.kill(pid, 'SIGKILL');
  await eventually(() => !alive(pid), 10_000, `${node.name} gone`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Every stream of the bucket current on all three nodes again (a restarted node caught up). */
async function allCurrent(nc: NatsConnection, bucket: string): Promise<boolean> {
  const info = await streamInfo(nc, bucket).catch(() => undefined);
  const replicas = info?.cluster?.replicas ?? [];
  return info?.cluster?.leader !== undefined && replicas.length === 2 && replicas.every((replica) => replica.current && !replica.offline);
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
    ["the owners stream's leader", async () => (await streamInfo(nc, owners)).cluster?.leader],
    ["the hosts stream's leader", async () => (await streamInfo(nc, hostsBucket)).cluster?.leader],
    ['the meta leader', metaLeader],
  ];
  for (const [what, leaderName] of victims) {
    const node = nodeNamed(await leaderName());
    await killNode(node);
    t.log(`killed ${what}, ${node.name}`);
    await answeredMore(load, 200, 60_000, `actors served with ${what} dead`);
    await cluster.start();
    await eventually(async () => (await allCurrent(nc, owners)) && (await allCurrent(nc, hostsBucket)), 60_000, `${node.name} caught up`);
    await answeredMore(load, 100, 30_000, `actors served after ${node.name} came back`);
  }

  // A rolling restart: each node in turn stops gracefully and comes back before the next goes.
  for (const node of cluster.nodes) {
    const pid = Number((await readFile(node.pidFile, 'utf8')).trim());
    process.kill(pid, 'SIGTERM');
    await eventually(() => !alive(pid), 30_000, `${node.name} stopped`);
    await answeredMore(load, 100, 60_000, `actors served with ${node.name} restarting`);
    await cluster.start();
    await eventually(async () => (await allCurrent(nc, owners)) && (await allCurrent(nc, hostsBucket)), 60_000, `${node.name} caught up`);
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
