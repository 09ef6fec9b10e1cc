/**
 * The soak's own PostgreSQL, Redis, NATS (JetStream) and Temporal: a private stack directory
 * under the benchmark's throwaway stack, started and restarted through `infra/stack.sh` (the
 * shared stack of infra/bench.sh must never be restarted under other users). Durable settings,
 * so a restart keeps the data: same directory, same ports (kept in its ports.env). NATS is one
 * server or a cluster of three (`--nats-cluster 3`: every bucket in three copies); PostgreSQL is
 * one server, or a primary with a synchronous standby when the postgres-failover fault is in the
 * mix (svc then gets both hosts with `target_session_attrs=read-write`).
 */
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { clusterNodes, type ClusterNode } from '../../test/harness/nats-cluster.js';
import { repoRoot } from '../../test/harness/stack.js';

const execFileAsync = promisify(execFile);

export const DEPENDENCIES = ['postgres', 'redis', 'nats', 'temporal'] as const;
export type Dependency = (typeof DEPENDENCIES)[number];

export interface StackAddresses {
  databaseUrl: string;
  redisUrl: string;
  natsUrl: string;
  /** Copies of each JetStream bucket: the NATS node count. */
  natsReplicas: number;
  temporalAddress: string;
}

export class PrivateStack {
  private constructor(
    readonly dir: string,
    readonly addresses: StackAddresses,
    /** The NATS cluster's nodes (empty for a single server). */
    readonly natsNodes: ClusterNode[],
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  /**
   * Starts all four in a new directory: under SVCTEST_STACK_DIR when infra/bench.sh runs us (its
   * exit trap stops `private-soak-*` stacks left behind), else under the system temp dir.
   */
  /** `extra`: more infra/stack.sh variables (the NATS route proxies'). */
  static async start(natsNodes: 1 | 3 = 1, extra: Record<string, string> = {}, postgresStandby = false): Promise<PrivateStack> {
    const parent = process.env.SVCTEST_STACK_DIR ?? tmpdir();
    const dir = await mkdtemp(join(parent, 'private-soak-'));
    // When run as root the cluster belongs to the postgres user, who must enter this dir.
    await chmod(dir, 0o755);
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      SVC_STACK_DIR: dir,
      SVC_STACK_THROWAWAY: '0',
      SVC_STACK_TEMPORAL_HEADLESS: '1',
      SVC_STACK_NATS_NODES: String(natsNodes),
      SVC_STACK_PG_STANDBY: postgresStandby ? '1' : '0',
      ...extra,
    };
    await runStack(env, 'start', [...DEPENDENCIES]);
    return new PrivateStack(dir, await readStackEnv(dir), natsNodes === 3 ? await clusterNodes(dir) : [], env);
  }

  async stop(dependency: Dependency): Promise<void> {
    await runStack(this.env, 'stop', [dependency]);
  }

  /** Starts the dependency; for a NATS cluster, whichever of its nodes are down. */
  async start(dependency: Dependency): Promise<void> {
    await runStack(this.env, 'start', [dependency]);
  }

  /** A PostgreSQL pair's standby made the primary (`infra/stack.sh promote postgres`). */
  async promotePostgres(): Promise<void> {
    await runStack(this.env, 'promote', ['postgres']);
  }

  /** Stops everything and deletes the data. */
  async destroy(): Promise<void> {
    await runStack(this.env, 'stop', [...DEPENDENCIES]).catch((err: unknown) => console.error(`soak: could not stop the private stack: ${String(err)}`));
    await rm(this.dir, { recursive: true, force: true });
  }
}

async function runStack(env: NodeJS.ProcessEnv, action: 'start' | 'stop' | 'promote', components: string[]): Promise<void> {
  try {
    await execFileAsync('bash', [join(repoRoot(), 'infra', 'stack.sh'), action, ...components], { env, cwd: repoRoot(), timeout: 180_000 });
  } catch (err) {
    const stderr = (err as { stderr?: string }).stderr?.trim();
    throw new Error(`infra/stack.sh ${action} ${components.join(' ')} failed:\n${stderr || String(err)}`, { cause: err });
  }
}

async function readStackEnv(dir: string): Promise<StackAddresses> {
  const text = await readFile(join(dir, 'stack.env'), 'utf8');
  const value = (name: string): string => {
    const match = new RegExp(`^export ${name}=(.*)$`, 'm').exec(text);
    if (!match?.[1]) throw new Error(`${name} missing from ${dir}/stack.env`);
    return match[1].trim();
  };
  return {
    databaseUrl: value('SVC_DATABASE_URL'),
    redisUrl: value('SVC_REDIS_URL'),
    natsUrl: value('SVC_NATS_URL'),
    natsReplicas: Number(value('SVC_NATS_REPLICAS')),
    temporalAddress: value('SVC_TEMPORAL_ADDRESS'),
  };
}
