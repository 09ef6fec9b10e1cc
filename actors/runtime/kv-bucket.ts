/**
 * Opens one of svc's JetStream KV buckets with the replication the deployment asks for
 * (`nats.replicas`: 1 on a single server, 3 on a three-node cluster). Each bucket declares its
 * storage here, beside why (docs/2026-11-30-nats-topologies.md):
 * - `file`: the room owners. Their revisions are the fencing tokens PostgreSQL compares; a
 *   bucket that came back empty after a whole-cluster restart would start them at 1 again, below
 *   every fence already written, and no room could be activated.
 * - `memory`: host liveness, the transcoder directory and the live registry. Each key is rewritten
 *   every few hundred ms to few s and expires by max-age, so nothing in them outlives its writer;
 *   with R3 a memory stream still survives the loss of any one node, and a whole-cluster restart
 *   only empties what every writer restores within one beat.
 *
 * A JetStream that is still settling (a cluster just formed) is waited out for a while.
 *
 * A bucket outlives the process that made it. nats.js binds an existing one as it is, so a
 * deployment that moved from one server to a cluster would keep R1 buckets: the replica count is
 * raised (or lowered) in place here, which JetStream does without losing the keys.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { NatsError, StorageType, type JetStreamClient, type KV } from 'nats';
import { AppError } from '../../errors/index.js';
import { isNoResponders, isRequestTimeout, messageOf } from './nats-errors.js';

export interface BucketSpec {
  name: string;
  storage: 'file' | 'memory';
  /** Max-age of every key in ms (0 or absent: none). */
  ttlMs?: number;
  /** Timeout of each KV operation in ms (nats.js default otherwise). */
  timeoutMs?: number;
}

export interface BucketReplication {
  /** Copies of each bucket: `nats.replicas`. */
  replicas: number;
  /** Told when an existing bucket's copies are changed. */
  onResized?: (bucket: string, from: number, to: number) => void;
}

export async function openBucket(js: JetStreamClient, spec: BucketSpec, replication: BucketReplication = { replicas: 1 }): Promise<KV> {
  const deadline = Date.now() + SETTLING_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return await openOnce(js, spec, replication);
    } catch (err) {
      if (!settling(err) || Date.now() >= deadline) throw err;
      await sleep(Math.min(PAUSE_CAP_MS, 100 * 2 ** (attempt - 1)));
    }
  }
}

async function openOnce(js: JetStreamClient, spec: BucketSpec, replication: BucketReplication): Promise<KV> {
  const { replicas } = replication;
  let kv: KV;
  try {
    kv = await js.views.kv(spec.name, {
      history: 1,
      storage: spec.storage === 'file' ? StorageType.File : StorageType.Memory,
      replicas,
      // Reads from the stream leader: a direct get may be answered by a follower a moment
      // behind, and on an R3 stream just created it finds no responders at all (measured: 9 of
      // 12 first reads on a new cluster). Every read here decides something.
      allow_direct: false,
      ...(spec.ttlMs ? { ttl: spec.ttlMs } : {}),
      ...(spec.timeoutMs ? { timeout: spec.timeoutMs } : {}),
    });
  } catch (err) {
    throw replicationError(spec.name, replicas, err);
  }
  let status = await kv.status();
  // A stream just created on a cluster has no leader for some tens of ms, and a read sent to
  // it then is dropped, not refused: the caller would wait out its whole timeout (5 s, measured
  // for three of four hosts started together on a new cluster). Wait for the election instead.
  while (status.streamInfo.cluster && !status.streamInfo.cluster.leader) {
    await sleep(LEADER_POLL_MS);
    status = await kv.status();
  }
  if (status.replicas !== replicas) {
    const config = status.streamInfo.config;
    try {
      const jsm = await js.jetstreamManager();
      await jsm.streams.update(config.name, { ...config, num_replicas: replicas });
    } catch (err) {
      throw replicationError(spec.name, replicas, err);
    }
    replication.onResized?.(spec.name, status.replicas, replicas);
  }
  return kv;
}

/**
 * How long a start waits out a JetStream that is still settling. A cluster that has just formed
 * (or lost its meta leader) answers its first API requests with a timeout or "no responders" for
 * a second or two (measured: one of four concurrent bucket creations on a cluster started a
 * moment before); a host or gateway started beside it must not fail for that.
 */
const SETTLING_MS = 15_000;
const PAUSE_CAP_MS = 1_000;
const LEADER_POLL_MS = 20;
/** JetStream's "temporarily unavailable" answer (no meta leader yet). */
const JS_CLUSTER_NOT_AVAILABLE = 10008;

function settling(err: unknown): boolean {
  if (isNoResponders(err) || isRequestTimeout(err)) return true;
  return err instanceof NatsError && (err.api_error?.err_code === JS_CLUSTER_NOT_AVAILABLE || err.api_error?.code === 503);
}

/**
 * JetStream's refusal of a replica count, in the deployment's words. A single server never
 * accepts more than one copy (a configuration error: the start fails at once); a cluster whose
 * nodes have not all joined yet refuses placement for a while (`unavailable`: a start with
 * `--wait` waits for it).
 */
function replicationError(bucket: string, replicas: number, err: unknown): Error {
  const message = messageOf(err);
  if (!/replica|insufficient resources|peer|clustered/i.test(message)) return err instanceof Error ? err : new Error(message);
  return new AppError(
    /non-clustered/i.test(message) ? 'failed_precondition' : 'unavailable',
    `NATS could not keep ${replicas} copies of the KV bucket ${bucket} (${message}): nats.replicas must be at most the number of JetStream servers in the NATS cluster (1 for a single server)`,
    [],
    { cause: err },
  );
}
