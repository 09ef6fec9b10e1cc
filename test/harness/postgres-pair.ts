/**
 * A PostgreSQL pair of infra/stack.sh (`SVC_STACK_PG_STANDBY=1`: a primary and a synchronous
 * streaming standby) seen from outside: its nodes from the stack's ports.env, which one is the
 * primary, and a failover as an operator or a failover manager does it: the primary killed
 * (kill -9), the standby promoted, the lost node copied back as the new standby. The failover
 * test and the soak's postgres-failover fault share it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { eventually } from '../fixtures/deadline.js';
import { processAlive, stackPorts } from './stack-files.js';

export interface PostgresNode {
  /** 1 or 2, as infra/stack.sh numbers them. */
  k: number;
  port: number;
  /** postmaster.pid in its data dir: the running server's pid on its first line. */
  pidFile: string;
}

/** The two nodes of the pair in stack dir `dir`. */
export async function postgresNodes(dir: string): Promise<PostgresNode[]> {
  const ports = await stackPorts(dir);
  return [1, 2].map((k) => {
    const port = Number(ports.get(k === 1 ? 'SVC_STACK_PG_PORT' : `SVC_STACK_PG${k}_PORT`));
    if (!Number.isInteger(port) || port <= 0) throw new Error(`no port of PostgreSQL node ${k} in ${dir}/ports.env`);
    const nodeDir = k === 1 ? join(dir, 'postgres') : join(dir, 'postgres', `node${k}`);
    return { k, port, pidFile: join(nodeDir, 'data', 'postmaster.pid') };
  });
}

/** The superuser URL of one node, database `svc`. */
export function nodeUrl(node: PostgresNode): string {
  return `postgres://svc@127.0.0.1:${node.port}/svc`;
}

/** Whether the node answers and is not in recovery; undefined when it does not answer. */
export async function isPrimary(node: PostgresNode): Promise<boolean | undefined> {
  const client = new pg.Client({ connectionString: nodeUrl(node), connectionTimeoutMillis: 2_000, query_timeout: 2_000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    const { rows } = await client.query<{ recovery: boolean }>('SELECT pg_is_in_recovery() AS recovery');
    return !rows[0]!.recovery;
  } catch {
    return undefined;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The node that is the primary now. */
export async function primaryNode(nodes: readonly PostgresNode[]): Promise<PostgresNode> {
  for (const node of nodes) if ((await isPrimary(node)) === true) return node;
  throw new Error(`no PostgreSQL node on ports ${nodes.map((node) => node.port).join(', ')} is a primary`);
}

/** kill -9 of the node's postmaster; resolves once it and its backends are gone. */
export async function killNode(node: PostgresNode): Promise<void> {
  const pid = Number((await readFile(node.pidFile, 'utf8')).split('\n')[0]);
  process.kill(pid, 'SIGKILL');
  await eventually(() => !processAlive(pid), 30_000, `PostgreSQL node ${node.k} (pid ${pid}) gone after SIGKILL`);
  // Backends notice their postmaster's death on their own; until they do the port may still
  // answer a connection that is then refused, which is not yet the failover to measure.
  await eventually(async () => (await isPrimary(node)) === undefined, 30_000, `PostgreSQL node ${node.k} no longer answering`);
}
