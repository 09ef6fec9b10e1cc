import { randomBytes } from 'node:crypto';
import { connect, type NatsConnection } from 'nats';
import { ActorClient } from '../../actors/runtime/client.js';
import { natsOptions } from '../../server/connections.js';
import { hostKey, ownersBucketName } from '../../actors/runtime/names.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from './replica.js';
import { runSvc } from './svc-process.js';
import { freshDatabase, testStack } from './stack.js';

/**
 * A pool of real `svc serve --role actors` processes on one fresh database and a subject
 * prefix of their own, plus a NATS client for the test or benchmark that drives them.
 */
export class ActorCluster {
  readonly hosts = new Map<string, Replica>();
  private counter = 0;

  private constructor(
    readonly databaseUrl: string,
    readonly prefix: string,
    readonly nc: NatsConnection,
    readonly client: ActorClient,
    private readonly secrets: Record<string, string>,
    private readonly extraEnv: Record<string, string>,
  ) {}

  /** `databaseUrl`: another database than a fresh one on the test stack (a private server a test stops). */
  static async start(options: { label: string; hosts: number; env?: Record<string, string> | undefined; databaseUrl?: string }): Promise<ActorCluster> {
    const databaseUrl = options.databaseUrl ?? (await freshDatabase(options.label));
    const migrated = await runSvc(['migrate'], { SVC_DATABASE_URL: databaseUrl });
    if (migrated.code !== 0) throw new Error(`migrate failed: ${migrated.stderr}`);
    const prefix = `t${randomBytes(4).toString('hex')}`;
    const nc = await connect(natsOptions([testStack().natsUrl], `test-${options.label}`));
    const cluster = new ActorCluster(databaseUrl, prefix, nc, new ActorClient(nc, prefix), await generatedSecrets(), options.env ?? {});
    await Promise.all(Array.from({ length: options.hosts }, () => cluster.addHost()));
    return cluster;
  }

  /** Starts one more actor host; resolves once it serves. */
  async addHost(): Promise<string> {
    this.counter += 1;
    const id = `host-${this.counter}`;
    const env = await replicaEnv(this.databaseUrl, this.secrets, { SVC_NATS_SUBJECT_PREFIX: this.prefix, ...this.extraEnv });
    const replica = await startReplica(['--role', 'actors', '--replica-id', id], env);
    this.hosts.set(id, replica);
    return id;
  }

  /** The host currently owning an actor, from the ownership bucket. */
  async ownerOf(type: string, id: string): Promise<string | undefined> {
    const kv = await this.nc.jetstream().views.kv(ownersBucketName(this.prefix, type));
    const entry = await kv.get(id);
    if (!entry || entry.operation !== 'PUT') return undefined;
    const record = entry.json<{ hostId: string }>();
    return [...this.hosts.keys()].find((hostId) => hostId === record.hostId || hostKey(hostId) === record.hostId) ?? record.hostId;
  }

  /** `kill -9`: the host gets no chance to persist or release anything. */
  async kill(hostId: string): Promise<void> {
    const replica = this.hosts.get(hostId);
    if (!replica) throw new Error(`no host ${hostId}`);
    this.hosts.delete(hostId);
    await replica.process.stop('SIGKILL');
  }

  /** SIGSTOP (`paused`) or SIGCONT: a host that is alive but cannot run, like a blocked event loop or a partition. */
  signal(hostId: string, signal: 'SIGSTOP' | 'SIGCONT'): void {
    const replica = this.hosts.get(hostId);
    if (!replica) throw new Error(`no host ${hostId}`);
    replica.process.child.kill(signal);
  }

  /** SIGTERM: a graceful drain. Resolves with the exit code. */
  async drain(hostId: string): Promise<number | null> {
    const replica = this.hosts.get(hostId);
    if (!replica) throw new Error(`no host ${hostId}`);
    this.hosts.delete(hostId);
    return replica.process.stop('SIGTERM', 30_000);
  }

  async stop(): Promise<void> {
    await Promise.all([...this.hosts.values()].map((replica) => replica.process.stop('SIGKILL')));
    this.hosts.clear();
    await this.nc.close();
  }
}
