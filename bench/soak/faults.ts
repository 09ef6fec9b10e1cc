/**
 * One fault at a time, every 10-20 s after the previous one ended, drawn from the chosen mix
 * with the seeded generator: kill -9 of any svc process (the supervisor starts a new one),
 * SIGSTOP of an actor host or a gateway for 3-5 s (past the 1.5 s lease) then SIGCONT, SIGTERM
 * of any svc process (a new one once it has exited), and a restart of NATS, PostgreSQL, Redis or
 * Temporal. On a NATS cluster also: kill -9 of one node (the meta leader, the leader of the rooms'
 * owners bucket, or any), brought back 3-8 s later as a supervisor would; and a rolling restart
 * of all three nodes, each back and caught up before the next goes; and one node (chosen the same
 * way) cut off from the other two for 10 s, its clients still connected to it (route-proxies.ts).
 * With a PostgreSQL pair, a failover: kill -9 of the primary, its standby promoted at once (as a
 * failover manager would), and the lost node copied back in as the new standby.
 * Each fault's start and end are recorded, with what it hit.
 */
import { connect, type NatsConnection } from 'nats';
import { hostsBucketName, ownersBucketName } from '../../actors/runtime/names.js';
import { eventually } from '../../test/fixtures/deadline.js';
import { metaLeader, nodeNamed, stopNode, streamLeader, streamsCurrent, type ClusterNode } from '../../test/harness/nats-cluster.js';
import { killNode, postgresNodes, primaryNode } from '../../test/harness/postgres-pair.js';
import type { Cluster, Incarnation, Slot } from './cluster.js';
import type { Dependency, PrivateStack } from './dependencies.js';
import type { FaultKind } from './options.js';
import type { Random } from './random.js';
import type { RouteProxies } from '../../test/harness/route-proxies.js';

/** How long a partitioned NATS node stays cut off. */
const PARTITION_MS = 10_000;

export interface Fault {
  kind: FaultKind;
  /** The slot (svc faults) or the dependency. */
  target: string;
  role: 'gateway' | 'actors' | 'worker' | 'dependency';
  /** The incarnation hit (svc faults). */
  replicaId: string | undefined;
  startAt: number;
  /** The SIGCONT (stop), or when the replacement / restarted dependency was serving. */
  endAt: number | undefined;
  /** What recovery is measured from: the start, or for a SIGSTOP its end. */
  referenceAt: number;
  error: string | undefined;
}

export class FaultInjector {
  readonly faults: Fault[] = [];
  private stopped = false;
  /** For the NATS cluster's leaders (cluster faults only). */
  private nc: NatsConnection | undefined;
  private loop: Promise<void> | undefined;
  private wake: (() => void) | undefined;

  constructor(
    private readonly kinds: readonly FaultKind[],
    private readonly cluster: Cluster,
    private readonly stack: PrivateStack,
    private readonly random: Random,
    private readonly log: (line: string) => void,
    private readonly routes?: RouteProxies,
  ) {}

  start(): void {
    if (this.kinds.length === 0) return;
    this.loop = (async () => {
      while (!this.stopped) {
        await this.pause(this.random.int(10_000, 20_000));
        if (this.stopped) break;
        await this.inject(this.random.pick(this.kinds));
      }
    })();
  }

  /** No new faults; resolves once the one in progress has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.loop;
    await this.nc?.close();
  }

  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  private async inject(kind: FaultKind): Promise<void> {
    switch (kind) {
      case 'kill':
        return this.signalSlot(kind, this.random.pick(this.cluster.slots), 'SIGKILL');
      case 'term':
        return this.signalSlot(kind, this.random.pick(this.cluster.slots), 'SIGTERM');
      case 'stop':
        return this.stopSlot(this.random.pick([...this.cluster.hosts, ...this.cluster.hosts, ...this.cluster.gateways]));
      case 'nats-node':
        return this.killNatsNode();
      case 'nats-rolling':
        return this.rollNats();
      case 'nats-partition':
        return this.partitionNats();
      case 'postgres-failover':
        return this.failoverPostgres();
      default:
        return this.restart(kind);
    }
  }

  private record(kind: FaultKind, target: string, role: Fault['role'], incarnation: Incarnation | undefined): Fault {
    const now = Date.now();
    const fault: Fault = { kind, target, role, replicaId: incarnation?.replicaId, startAt: now, endAt: undefined, referenceAt: now, error: undefined };
    this.faults.push(fault);
    return fault;
  }

  private async signalSlot(kind: 'kill' | 'term', slot: Slot, signal: 'SIGKILL' | 'SIGTERM'): Promise<void> {
    await slot.whenServing();
    const incarnation = slot.current!.incarnation;
    const fault = this.record(kind, slot.name, slot.role, incarnation);
    slot.signal(signal);
    this.log(`fault ${kind} ${slot.name} (${incarnation.replicaId})`);
    try {
      await slot.exited(incarnation);
      await slot.whenServing();
    } catch (err) {
      fault.error = String(err);
    }
    fault.endAt = Date.now();
    this.log(`fault ${kind} ${slot.name}: replaced after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }

  private async stopSlot(slot: Slot): Promise<void> {
    await slot.whenServing();
    const incarnation = slot.current!.incarnation;
    const fault = this.record('stop', slot.name, slot.role, incarnation);
    const ms = this.random.int(3_000, 5_000);
    slot.signal('SIGSTOP');
    this.log(`fault stop ${slot.name} (${incarnation.replicaId}) for ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, ms));
    slot.signal('SIGCONT');
    fault.endAt = Date.now();
    fault.referenceAt = fault.endAt;
  }

  /** The soak's cluster runs with the default subject prefix. */
  private readonly buckets = [`KV_${ownersBucketName('svc', 'room')}`, `KV_${hostsBucketName('svc')}`];

  private async natsConnection(): Promise<NatsConnection> {
    this.nc ??= await connect({ servers: this.stack.natsNodes.map((node) => node.url), name: 'soak-faults', maxReconnectAttempts: -1, reconnectTimeWait: 250 });
    return this.nc;
  }

  /** Back: whichever nodes are down started, and every bucket's copies current again. */
  private async natsBack(nc: NatsConnection): Promise<void> {
    await this.stack.start('nats');
    await eventually(() => streamsCurrent(nc, this.buckets), 120_000, 'the NATS cluster caught up');
  }

  /** A node of the cluster: the meta leader, the owners bucket's leader or any, at random. */
  private async pickNatsNode(nc: NatsConnection): Promise<{ node: ClusterNode; which: string }> {
    const nodes = this.stack.natsNodes;
    const which = this.random.pick(['meta leader', 'owners leader', 'any node'] as const);
    const name = which === 'meta leader' ? await metaLeader(nodes) : which === 'owners leader' ? await streamLeader(nc, this.buckets[0]!).catch(() => undefined) : undefined;
    return { node: name ? nodeNamed(nodes, name) : this.random.pick(nodes), which };
  }

  private async partitionNats(): Promise<void> {
    const nc = await this.natsConnection();
    if (!this.routes) throw new Error('nats-partition needs the route proxies of --nats-cluster 3');
    const { node, which } = await this.pickNatsNode(nc);
    const fault = this.record('nats-partition', `${node.name} (${which})`, 'dependency', undefined);
    this.log(`fault nats-partition: ${node.name} (${which}) cut off from the other nodes for ${PARTITION_MS} ms`);
    this.routes.partition(this.stack.natsNodes.indexOf(node));
    await new Promise((resolve) => setTimeout(resolve, PARTITION_MS));
    this.routes.heal();
    try {
      await eventually(() => streamsCurrent(nc, this.buckets), 120_000, 'the NATS cluster caught up after the partition');
    } catch (err) {
      fault.error = String(err);
    }
    fault.endAt = Date.now();
    this.log(`fault nats-partition ${node.name}: healed and caught up after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }

  private async killNatsNode(): Promise<void> {
    const nc = await this.natsConnection();
    const { node, which } = await this.pickNatsNode(nc);
    const fault = this.record('nats-node', `${node.name} (${which})`, 'dependency', undefined);
    const downMs = this.random.int(3_000, 8_000);
    this.log(`fault nats-node: kill -9 ${node.name} (${which}), back in ${downMs} ms`);
    try {
      await stopNode(node, 'SIGKILL');
      await new Promise((resolve) => setTimeout(resolve, downMs));
      await this.natsBack(nc);
    } catch (err) {
      fault.error = String(err);
      await this.stack.start('nats').catch(() => undefined);
    }
    fault.endAt = Date.now();
    this.log(`fault nats-node ${node.name}: back and caught up after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }

  private async rollNats(): Promise<void> {
    const nc = await this.natsConnection();
    const fault = this.record('nats-rolling', 'nats', 'dependency', undefined);
    this.log('fault nats-rolling: each node in turn stops (SIGTERM) and comes back');
    try {
      for (const node of this.stack.natsNodes) {
        await stopNode(node, 'SIGTERM');
        await this.natsBack(nc);
      }
    } catch (err) {
      fault.error = String(err);
      await this.stack.start('nats').catch(() => undefined);
    }
    fault.endAt = Date.now();
    this.log(`fault nats-rolling: all three restarted after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }

  /** The fault's end is the promotion (svc can write again); the copy back comes after it. */
  private async failoverPostgres(): Promise<void> {
    const nodes = await postgresNodes(this.stack.dir);
    const old = await primaryNode(nodes);
    const fault = this.record('postgres-failover', `node ${old.k}`, 'dependency', undefined);
    this.log(`fault postgres-failover: kill -9 of the primary (node ${old.k}), its standby promoted`);
    try {
      await killNode(old);
      await this.stack.promotePostgres();
      fault.endAt = Date.now();
      await this.stack.start('postgres');
      this.log(`fault postgres-failover: promoted after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s; node ${old.k} a standby again after ${((Date.now() - fault.startAt) / 1000).toFixed(2)} s`);
    } catch (err) {
      fault.error = String(err);
      fault.endAt ??= Date.now();
      this.log(`fault postgres-failover failed: ${String(err)}`);
      await this.stack.start('postgres').catch(() => undefined);
    }
  }

  private async restart(kind: Dependency): Promise<void> {
    const fault = this.record(kind, kind, 'dependency', undefined);
    this.log(`fault restart ${kind}`);
    try {
      await this.stack.stop(kind);
      await this.stack.start(kind);
    } catch (err) {
      fault.error = String(err);
      this.log(`restart of ${kind} failed: ${String(err)}`);
      await this.stack.start(kind).catch(() => undefined);
    }
    fault.endAt = Date.now();
    this.log(`fault restart ${kind}: back after ${((fault.endAt - fault.startAt) / 1000).toFixed(2)} s`);
  }
}
