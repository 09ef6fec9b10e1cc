/**
 * A handle on a memory bucket that makes the bucket again when NATS has come back without it.
 *
 * A single NATS server keeps memory streams only while it runs: after a restart the transcoder
 * directory's or the live registry's bucket is gone, and every put is refused ("no
 * responders": no stream takes the subject) until some process opens the bucket again, which
 * without this was the next process to start. The writers of these buckets rewrite their keys
 * every few seconds, so the one that finds the bucket gone makes it, and what it held is
 * restored within one beat (docs/2026-11-30-nats-topologies.md). On a cluster the stream's
 * definition survives; a put while it has no leader fails the same way, and opening it
 * again waits for the election (openBucket).
 */
import { NatsError, type KV } from 'nats';
import { isNoResponders } from './nats-errors.js';

/** JetStream's "stream not found". */
const STREAM_NOT_FOUND = 10059;

/** Whether `err` says the bucket's stream is not there (a put nobody takes, a read of no stream). */
export function isBucketGone(err: unknown): boolean {
  return isNoResponders(err) || (err instanceof NatsError && err.api_error?.err_code === STREAM_NOT_FOUND);
}

export class RecreatingBucket {
  private reopening: Promise<KV> | undefined;

  constructor(
    private kv: KV,
    /** Opens (creates, if missing) the bucket: openBucket with the bucket's own spec. */
    private readonly open: () => Promise<KV>,
  ) {}

  /** Runs `operation` on the bucket; once more on a bucket opened again if it was gone. */
  async use<T>(operation: (kv: KV) => Promise<T>): Promise<T> {
    const kv = this.kv;
    try {
      return await operation(kv);
    } catch (err) {
      if (!isBucketGone(err)) throw err;
      return operation(await this.reopen(kv));
    }
  }

  /** One reopening for every operation that found `stale` gone at once. */
  private reopen(stale: KV): Promise<KV> {
    if (this.kv !== stale) return Promise.resolve(this.kv);
    this.reopening ??= this.open().then(
      (kv) => {
        this.kv = kv;
        this.reopening = undefined;
        return kv;
      },
      (err: unknown) => {
        this.reopening = undefined;
        throw err;
      },
    );
    return this.reopening;
  }
}
