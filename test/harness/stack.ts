/**
 * The tests' view of the real services. `npm test` (infra/test.sh) starts a throwaway stack —
 * PostgreSQL, Redis, NATS, Temporal and LiveKit on free ports — and describes it in SVCTEST_*
 * variables; this module reads them and hands out isolated pieces of it.
 */
import { execFile } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { clusterNodes, type ClusterNode } from './nats-cluster.js';
import { postgresNodes, type PostgresNode } from './postgres-pair.js';

const execFileAsync = promisify(execFile);

export interface TestStack {
  /** Superuser URL of the stack's cluster, database `svc`. Prefer freshDatabase() for writes. */
  pgUrl: string;
  redisUrl: string;
  natsUrl: string;
  /** host:port of the Temporal frontend. */
  temporalAddress: string;
  /** The stack's own temp directory; removed after the run. */
  dir: string;
  /** The stack's LiveKit node (read when first used: a test that needs none runs without it). */
  readonly sfu: TestSfu;
}

/** A LiveKit node as svc's sfu.* keys describe it. */
export interface TestSfu {
  /** Its HTTP address, for the API (svc's sfu.url). */
  url: string;
  /** The address browsers open (svc's sfu.public_url). */
  publicUrl: string;
  apiKey: string;
  apiSecret: string;
}

/** A server of the stack's kind that a test may stop and start under the service. */
export interface PrivateServer {
  /** Its URL (PostgreSQL: superuser, database `svc`); the same across stop() and start(). */
  url: string;
  /** Starts it again on the same data and port; a no-op when running. */
  start(): Promise<void>;
  /** Stops it: connections fail until start(). */
  stop(): Promise<void>;
  /** Stops it and deletes its data. */
  destroy(): Promise<void>;
}

export type PrivatePostgres = PrivateServer;

/** A private three-node NATS cluster (routes, JetStream on each node). */
export interface PrivateCluster extends PrivateServer {
  nodes: ClusterNode[];
}

/** A private PostgreSQL pair: a primary and a synchronous streaming standby. */
export interface PrivatePostgresPair extends PrivateServer {
  nodes: PostgresNode[];
  /** `infra/stack.sh promote postgres`: the running standby becomes the primary. */
  promote(): Promise<void>;
}

const STACK_VARIABLES = {
  pgUrl: 'SVCTEST_PG_URL',
  redisUrl: 'SVCTEST_REDIS_URL',
  natsUrl: 'SVCTEST_NATS_URL',
  temporalAddress: 'SVCTEST_TEMPORAL_ADDRESS',
  dir: 'SVCTEST_STACK_DIR',
} as const satisfies Record<Exclude<keyof TestStack, 'sfu'>, string>;

const SFU_VARIABLES = {
  url: 'SVCTEST_SFU_URL',
  publicUrl: 'SVCTEST_SFU_PUBLIC_URL',
  apiKey: 'SVCTEST_SFU_API_KEY',
  apiSecret: 'SVCTEST_SFU_API_SECRET',
} as const satisfies Record<keyof TestSfu, string>;

function missingVariables(names: readonly string[]): void {
  const missing = names.filter((name) => !process.env[name]);
  if (missing.length > 0) {
    throw new Error(
      `no test stack: ${missing.join(', ')} not set. Run the tests through npm test ` +
        '(for example `npm test -- dist/test/harness/`), which starts a throwaway stack and sets them.',
    );
  }
}

/** The running test stack. Throws when the tests were not started through `npm test`. */
export function testStack(): TestStack {
  missingVariables(Object.values(STACK_VARIABLES));
  const read = (name: string): string => process.env[name] as string;
  return {
    pgUrl: read(STACK_VARIABLES.pgUrl),
    redisUrl: read(STACK_VARIABLES.redisUrl),
    natsUrl: read(STACK_VARIABLES.natsUrl),
    temporalAddress: read(STACK_VARIABLES.temporalAddress),
    dir: read(STACK_VARIABLES.dir),
    get sfu(): TestSfu {
      missingVariables(Object.values(SFU_VARIABLES));
      return {
        url: read(SFU_VARIABLES.url),
        publicUrl: read(SFU_VARIABLES.publicUrl),
        apiKey: read(SFU_VARIABLES.apiKey),
        apiSecret: read(SFU_VARIABLES.apiSecret),
      };
    },
  };
}

/**
 * Creates a new, empty database on the stack's cluster and returns its superuser URL. The name
 * is derived from `label` (for finding it while debugging) plus randomness, so test files running
 * in parallel never share one.
 */
export async function freshDatabase(label: string): Promise<string> {
  const { pgUrl } = testStack();
  const slug =
    label
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '')
      .slice(0, 40) || 'db';
  // Only [a-z0-9_] and at most 55 bytes: a valid identifier under PostgreSQL's 63-byte limit.
  const name = `t_${slug}_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  try {
    // template0 takes no connections, so concurrent CREATE DATABASE calls never find their
    // template "being accessed by other users", and nothing a test put in template1 leaks in.
    await client.query(`CREATE DATABASE "${name}" TEMPLATE template0`);
  } finally {
    await client.end();
  }
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * Starts a PostgreSQL cluster of its own (for tests that stop the database under the service),
 * through `infra/stack.sh` with a private stack directory under the test stack's and a free port.
 * infra/test.sh stops any that a test left running (it looks for `private-*` folders).
 */
export function startPrivatePostgres(): Promise<PrivatePostgres> {
  return startPrivateServer('postgres', 'pg', (port) => `postgres://svc@127.0.0.1:${port}/svc`);
}

/** A NATS server (JetStream on, store on disk) of its own, for tests that restart NATS under the service. */
export function startPrivateNats(): Promise<PrivateServer> {
  return startPrivateServer('nats', 'nats', (port) => `nats://127.0.0.1:${port}`);
}

/**
 * Three NATS servers in one cluster of their own (`SVC_STACK_NATS_NODES=3`): `url` lists all
 * three. start() brings back whichever nodes are down, alone into the cluster. `extra`: more
 * infra/stack.sh variables (routes through `RouteProxies`, for a partition).
 */
export async function startPrivateNatsCluster(extra: Record<string, string> = {}): Promise<PrivateCluster> {
  const dir = await mkdtemp(join(testStack().dir, 'private-nats-'));
  const control = await startedStack(dir, 'nats', { SVC_STACK_NATS_NODES: '3', ...extra });
  const nodes = await clusterNodes(dir);
  return { url: nodes.map((node) => node.url).join(','), nodes, ...control };
}

/**
 * A primary and a streaming standby of their own (`SVC_STACK_PG_STANDBY=1`), durable so that
 * replication is synchronous: `url` lists both with `target_session_attrs=read-write`.
 * start() copies a node that is down back in as the standby.
 */
export async function startPrivatePostgresPair(): Promise<PrivatePostgresPair> {
  const dir = await mkdtemp(join(testStack().dir, 'private-pg-pair-'));
  await chmod(dir, 0o755);
  const env = { SVC_STACK_PG_STANDBY: '1', SVC_STACK_THROWAWAY: '0' };
  const control = await startedStack(dir, 'postgres', env);
  const nodes = await postgresNodes(dir);
  return {
    url: `postgres://svc@${nodes.map((node) => `127.0.0.1:${node.port}`).join(',')}/svc?target_session_attrs=read-write`,
    nodes,
    promote: () => runStackScript(['promote', 'postgres'], { ...process.env, SVC_STACK_DIR: dir, ...env }),
    ...control,
  };
}

async function startPrivateServer(component: 'postgres' | 'nats', short: 'pg' | 'nats', urlOf: (port: number) => string): Promise<PrivateServer> {
  const dir = await mkdtemp(join(testStack().dir, `private-${short}-`));
  // When the tests run as root the cluster belongs to the postgres user, who must enter this dir.
  await chmod(dir, 0o755);
  const port = await freePort();
  const control = await startedStack(dir, component, {
    [component === 'postgres' ? 'SVC_STACK_PG_PORT' : 'SVC_STACK_NATS_PORT']: String(port),
    ...(component === 'nats' ? { SVC_STACK_NATS_MONITOR_PORT: String(await freePort()) } : {}),
  });
  return { url: urlOf(port), ...control };
}

/** Starts `component` of a throwaway stack in `dir`; its controls, which destroy the dir at the end. */
async function startedStack(dir: string, component: 'postgres' | 'nats', extra: Record<string, string>): Promise<Omit<PrivateServer, 'url'>> {
  const env: NodeJS.ProcessEnv = { ...process.env, SVC_STACK_DIR: dir, SVC_STACK_THROWAWAY: '1', ...extra };
  const stack = (action: 'start' | 'stop') => runStackScript([action, component], env);
  const destroy = async () => {
    await stack('stop');
    await rm(dir, { recursive: true, force: true });
  };
  try {
    await stack('start');
  } catch (err) {
    await destroy().catch(() => undefined);
    throw err;
  }
  return { start: () => stack('start'), stop: () => stack('stop'), destroy };
}

/**
 * A TCP port that was free on 127.0.0.1 a moment ago. Picked at random below the kernel's
 * ephemeral range (32768 and up on Linux): a port the kernel hands out for :0 is also one it
 * gives the next outgoing connection, so between this check and the service's listen a client
 * socket of a busy test run could take it (a full run once saw metrics.listen "already in use").
 */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + randomInt(12_768);
    if (await bindable(port)) return port;
  }
  return bindable(0);
}

/** Binds `port` (0: any) on 127.0.0.1 and releases it; the port bound, or 0 if it was taken. */
function bindable(port: number): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', (err: NodeJS.ErrnoException) => (err.code === 'EADDRINUSE' || err.code === 'EACCES' ? resolvePort(0) : reject(err)));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address && typeof address === 'object') resolvePort(address.port);
        else reject(new Error(`unexpected server address ${String(address)}`));
      });
    });
  });
}

/** The repository root: SVCTEST_REPO, else found from this file's place in dist/test/harness/. */
export function repoRoot(): string {
  return resolve(process.env.SVCTEST_REPO ?? fileURLToPath(new URL('../../../', import.meta.url)));
}

/** Runs `infra/stack.sh <args>` with `env`; a failure carries the script's explanation. */
export async function runStackScript(args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  const script = join(repoRoot(), 'infra', 'stack.sh');
  try {
    await execFileAsync('bash', [script, ...args], { env, cwd: repoRoot(), timeout: 120_000 });
  } catch (err) {
    // stack.sh explains a failure on stderr (with the tail of the component's log).
    const stderr = (err as { stderr?: string }).stderr?.trim();
    const detail = stderr || (err instanceof Error ? err.message : String(err));
    throw new Error(`infra/stack.sh ${args.join(' ')} failed:\n${detail}`, { cause: err });
  }
}
