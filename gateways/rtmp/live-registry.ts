/**
 * Which replica holds each running livestream, so a `/media/live/...` request that reaches
 * another replica is forwarded there instead of answering 404 (spec 7.2). One JetStream KV
 * entry per stream, (room, item) -> the publisher replica's internal base URL
 * (`server.advertise_url`). The publisher rewrites its entries every REFRESH_MS; the bucket's
 * max-age drops the entries of a replica that died without deleting them. As with the actor
 * liveness keys (actors/runtime/liveness.ts), a per-key TTL fixed at creation cannot express
 * "alive while refreshed"; a bucket max-age can.
 */
import { createHash } from 'node:crypto';
import type { NatsConnection } from 'nats';
import { decode, encode, liveBucketName, openBucket, RecreatingBucket } from '../../actors/index.js';
import type { StreamTarget } from '../../media/index.js';

export const REGISTRY_REFRESH_MS = 5_000;
const REGISTRY_TTL_MS = 15_000;

export interface LiveEntry {
  /** Base URL of the publisher replica's HTTP API, reachable from the other replicas. */
  baseUrl: string;
  replicaId: string;
  startedAt: number;
}

/** KV keys allow `[-/_=.a-zA-Z0-9]`; room ids are base64url, but any id must map safely. */
function keyOf(target: StreamTarget): string {
  return createHash('sha256').update(`${target.roomId}\u0000${target.mediaId}`).digest('hex');
}

export class LiveRegistry {
  private constructor(private readonly bucket: RecreatingBucket) {}

  /** `replicas`: startup key `nats.replicas`. */
  static async open(nc: NatsConnection, prefix: string, replicas: number): Promise<LiveRegistry> {
    // Memory-backed: a NATS server that restarted comes back without it; the next refresh makes it again.
    const open = () => openBucket(nc.jetstream(), { name: liveBucketName(prefix), storage: 'memory', ttlMs: REGISTRY_TTL_MS }, { replicas });
    return new LiveRegistry(new RecreatingBucket(await open(), open));
  }

  async announce(target: StreamTarget, entry: LiveEntry): Promise<void> {
    await this.bucket.use((kv) => kv.put(keyOf(target), encode(entry)));
  }

  /**
   * Writes `entry` only if no replica holds `target` now (compare-and-set create): true when it
   * was written. A pulled stream is claimed this way, so two replicas asked for it at once do not
   * both pull it.
   */
  async claim(target: StreamTarget, entry: LiveEntry): Promise<boolean> {
    try {
      await this.bucket.use((kv) => kv.create(keyOf(target), encode(entry)));
      return true;
    } catch (err) {
      if ((await this.find(target)) !== null) return false;
      throw err;
    }
  }

  async withdraw(target: StreamTarget): Promise<void> {
    await this.bucket.use((kv) => kv.delete(keyOf(target)));
  }

  async find(target: StreamTarget): Promise<LiveEntry | null> {
    const entry = await this.bucket.use((kv) => kv.get(keyOf(target)));
    if (!entry || entry.operation !== 'PUT' || entry.value.length === 0) return null;
    return decode(entry.value) as LiveEntry;
  }
}
