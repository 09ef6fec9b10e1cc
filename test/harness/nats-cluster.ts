/**
 * A three-node NATS cluster of infra/stack.sh (`SVC_STACK_NATS_NODES=3`) seen from outside: its
 * nodes from the stack's ports.env, who leads JetStream's meta group and a stream, signals to one
 * node, and whether a restarted node has caught up. The cluster tests and the soak's NATS faults
 * share it.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NatsConnection } from 'nats';
import { eventually } from '../fixtures/deadline.js';
import { processAlive, stackPorts } from './stack-files.js';

/** One node of a stack's NATS cluster. */
export interface ClusterNode {
  /** `svc-nats-<client port>`, as the node names itself (JetStream's peer and leader names). */
  name: string;
  url: string;
  monitorUrl: string;
  pidFile: string;
}

/** The nodes of the NATS cluster in stack dir `dir`, in node order. */
export async function clusterNodes(dir: string): Promise<ClusterNode[]> {
  const ports = await stackPorts(dir);
  const port = (k: number, kind: '' | 'MONITOR_') => ports.get(k === 1 ? `SVC_STACK_NATS_${kind}PORT` : `SVC_STACK_NATS${k}_${kind}PORT`);
  return [1, 2, 3].map((k) => ({
    name: `svc-nats-${port(k, '')}`,
    url: `nats://127.0.0.1:${port(k, '')}`,
    monitorUrl: `http://127.0.0.1:${port(k, 'MONITOR_')}`,
    pidFile: join(dir, 'nats', `node${k}`, 'nats-server.pid'),
  }));
}

export function nodeNamed(nodes: readonly ClusterNode[], name: string | undefined): ClusterNode {
  const node = nodes.find((candidate) => candidate.name === name);
  if (!node) throw new Error(`no node of the cluster is named ${String(name)}`);
  return node;
}

/** The JetStream meta leader's name as the first node that answers reports it. */
export async function metaLeader(nodes: readonly ClusterNode[]): Promise<string | undefined> {
  for (const node of nodes) {
    try {
      const jsz = (await (await fetch(`${node.monitorUrl}/jsz`)).json()) as { meta_cluster?: { leader?: string } };
      if (jsz.meta_cluster?.leader) return jsz.meta_cluster.leader;
    } catch {
      // That node is down; ask the next.
    }
  }
  return undefined;
}

/** The leader of a stream (a KV bucket's is `KV_<bucket>`). */
export async function streamLeader(nc: NatsConnection, stream: string): Promise<string | undefined> {
  const jsm = await nc.jetstreamManager();
  return (await jsm.streams.info(stream)).cluster?.leader;
}

/** Sends `signal` to the node and resolves once its process has exited. */
export async function stopNode(node: ClusterNode, signal: 'SIGKILL' | 'SIGTERM', timeoutMs = 30_000): Promise<void> {
  const pid = Number((await readFile(node.pidFile, 'utf8')).trim());
  process.kill(pid, signal);
  await eventually(() => !processAlive(pid), timeoutMs, `${node.name} gone after ${signal}`);
}

/** Whether each stream has a leader and both followers current (a restarted node caught up). */
export async function streamsCurrent(nc: NatsConnection, streams: readonly string[]): Promise<boolean> {
  const jsm = await nc.jetstreamManager();
  for (const stream of streams) {
    const info = await jsm.streams.info(stream).catch(() => undefined);
    const replicas = info?.cluster?.replicas ?? [];
    if (!info?.cluster?.leader || replicas.length !== 2 || !replicas.every((replica) => replica.current && !replica.offline)) return false;
  }
  return true;
}
