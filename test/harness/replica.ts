import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pLimit from 'p-limit';
import { freePort, testStack } from './stack.js';
import { runSvc, SvcProcess } from './svc-process.js';

/**
 * Secrets from the CLI itself, as a new operator would get them. Made once per `npm test` run
 * and kept in its stack folder: most files ask at load, and a CLI start is about 0.4 CPU s, 30
 * of a server phase's. Each test file has its own database, so sharing them mixes nothing.
 */
export async function generatedSecrets(): Promise<Record<string, string>> {
  const root = process.env.SVCTEST_STACK_DIR;
  const kept = root ? join(root, 'secrets.env') : undefined;
  let text = kept ? await readFile(kept, 'utf8').catch(() => undefined) : undefined;
  if (text === undefined) {
    const result = await runSvc(['secrets', 'generate', '--output', 'env'], {});
    if (result.code !== 0) throw new Error(`secrets generate failed: ${result.stderr}`);
    text = result.stdout;
    // Whole or not at all for the next reader; two files writing at once both write valid secrets.
    if (kept) {
      const fresh = `${kept}.${process.pid}`;
      await writeFile(fresh, text, { mode: 0o600 });
      await rename(fresh, kept);
    }
  }
  const env: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) env[line.slice(0, at)] = line.slice(at + 1);
  }
  return env;
}

/** Startup configuration of a replica on the shared test stack and the given database. */
export async function replicaEnv(databaseUrl: string, secrets: Record<string, string>, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const stack = testStack();
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-replica-'));
  const env: Record<string, string> = {
    SVC_DATABASE_URL: databaseUrl,
    SVC_REDIS_URL: stack.redisUrl,
    SVC_NATS_URL: stack.natsUrl,
    SVC_TEMPORAL_ADDRESS: stack.temporalAddress,
    SVC_DATA_DIR: dataDir,
    SVC_SERVER_HOST: '127.0.0.1',
    SVC_SERVER_PORT: String(await freePort()),
    // Gateways also listen for gRPC; replicas on one machine need a port each.
    SVC_GRPC_HOST: '127.0.0.1',
    SVC_GRPC_PORT: String(await freePort()),
    // No RTMP ingest: no replica test publishes, and every port taken from freePort() is one
    // more a parallel test can grab between the check and the bind.
    SVC_RTMP_ENABLED: 'false',
    SVC_LOG_LEVEL: 'warn',
    ...secrets,
    ...extra,
  };
  // The generated management token is only for TCP endpoints; a Unix socket must not have one.
  if (!env.SVC_MANAGEMENT_ENDPOINT?.startsWith('tcp://')) delete env.SVC_MANAGEMENT_TOKEN;
  return env;
}

export interface Replica {
  process: SvcProcess;
  env: Record<string, string>;
  /** Empty when the replica has no gateway role. */
  httpUrl: string;
  /** The metrics listener's base URL; empty without `SVC_METRICS_LISTEN`. */
  metricsUrl: string;
  /** Environment a CLI needs to reach this replica's management endpoint. */
  cliEnv: Record<string, string>;
}

/**
 * `svc serve` processes starting at once in this test worker. A start loads the whole service;
 * the failover tests start a dozen hosts together, and on a busy 2-core machine every one of
 * them then missed its deadline. Two at a time keeps each deadline about one start.
 */
const starting = pLimit(2);

/**
 * Starts `svc serve` and waits until it is serving (its management line is printed last). One
 * that does not get there in time is killed: a test that gives up must not leave it running.
 */
export async function startReplica(args: string[], env: Record<string, string>): Promise<Replica> {
  const process = await starting(async () => {
    const started = new SvcProcess(['serve', ...args], env);
    try {
      // A start takes seconds; beside the other suites on a loaded 2-core machine, 30 s ran out.
      await started.waitForLine(/^management: /, 60_000);
    } catch (err) {
      await started.terminate('SIGKILL');
      throw err;
    }
    return started;
  });
  const httpLine = process.lines.find((line) => line.startsWith('svc HTTP API: '));
  const httpUrl = httpLine ? httpLine.replace(/^svc HTTP API: /, '').trim() : '';
  const metricsLine = process.lines.find((line) => line.startsWith('svc metrics: '));
  const metricsUrl = metricsLine ? metricsLine.replace(/^svc metrics: +(\S+)\/metrics.*$/, '$1') : '';
  const cliEnv: Record<string, string> = { SVC_DATA_DIR: env.SVC_DATA_DIR ?? '' };
  if (env.SVC_MANAGEMENT_ENDPOINT) cliEnv.SVC_MANAGEMENT_ENDPOINT = env.SVC_MANAGEMENT_ENDPOINT;
  if (env.SVC_MANAGEMENT_TOKEN) cliEnv.SVC_MANAGEMENT_TOKEN = env.SVC_MANAGEMENT_TOKEN;
  return { process, env, httpUrl, metricsUrl, cliEnv };
}
