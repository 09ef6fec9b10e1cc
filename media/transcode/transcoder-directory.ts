/**
 * The live transcoders, as every gateway and actor host sees them: one key per transcoder in
 * the `<prefix>_transcoders` KV bucket, rewritten by its heartbeat; the bucket's max-age drops
 * the key of one that stopped (the pattern of actors/runtime/liveness.ts and the live
 * registry). Readers keep a local copy from a watch, so picking a transcoder costs no round
 * trip. A transcoder that a reader found gone (no responders: its NATS connection closed, so
 * it died or stopped) is left out at once for that reader, until its key reappears with a new
 * heartbeat.
 *
 * Picking is rendezvous hashing on the item: every reader ranks the same transcoders the same
 * way for one item without talking to each other, so an item's readers meet on one encoder,
 * and when a transcoder goes only its items move.
 */
import { createHash } from 'node:crypto';
import { type KV, type KvWatchInclude, type NatsConnection, type QueuedIterator, type KvEntry } from 'nats';
import { decode, encode, openBucket, RecreatingBucket } from '../../actors/client.js';
import { transcodersBucket, type TranscoderEntry } from './transcode-wire.js';

/** How often a transcoder rewrites its key, and how long the key outlives the last rewrite. */
export const HEARTBEAT_MS = 2_000;
const ENTRY_TTL_MS = 8_000;

/** `replicas`: startup key `nats.replicas`. */
export async function openTranscodersBucket(nc: NatsConnection, prefix: string, replicas: number): Promise<KV> {
  return openBucket(nc.jetstream(), { name: transcodersBucket(prefix), storage: 'memory', ttlMs: ENTRY_TTL_MS }, { replicas });
}

export class TranscoderDirectory {
  private readonly live = new Map<string, TranscoderEntry>();
  /** Ids found gone by this reader, with the revision of the key seen then. */
  private readonly gone = new Map<string, number>();
  private readonly revisions = new Map<string, number>();
  private watch: QueuedIterator<KvEntry> | undefined;

  private constructor(private readonly kv: KV) {}

  static async open(nc: NatsConnection, prefix: string, replicas: number): Promise<TranscoderDirectory> {
    const directory = new TranscoderDirectory(await openTranscodersBucket(nc, prefix, replicas));
    await directory.follow();
    return directory;
  }

  /** The live transcoders for `routeKey`, best first. */
  ranked(routeKey: string): TranscoderEntry[] {
    const score = (id: string) => createHash('sha256').update(`${routeKey}\0${id}`).digest().readBigUInt64BE(0);
    return [...this.live.values()]
      .filter((entry) => !this.gone.has(entry.id))
      .map((entry) => ({ entry, score: score(entry.id) }))
      .sort((a, b) => (a.score < b.score ? 1 : a.score > b.score ? -1 : 0))
      .map(({ entry }) => entry);
  }

  /** How many transcoders are live (for readiness and the play endpoint). */
  get size(): number {
    return [...this.live.keys()].filter((id) => !this.gone.has(id)).length;
  }

  /** Leaves `id` out until its key is rewritten: a read found nobody answering on its subject. */
  markGone(id: string): void {
    this.gone.set(id, this.revisions.get(id) ?? 0);
  }

  close(): void {
    this.watch?.stop();
  }

  private async follow(): Promise<void> {
    const include: KvWatchInclude = 'initial' as KvWatchInclude;
    const watch = await this.kv.watch({ include });
    this.watch = watch;
    void (async () => {
      for await (const entry of watch) this.apply(entry);
    })().catch(() => undefined);
  }

  private apply(entry: KvEntry): void {
    if (entry.operation !== 'PUT' || entry.value.length === 0) {
      this.live.delete(entry.key);
      this.revisions.delete(entry.key);
      this.gone.delete(entry.key);
      return;
    }
    const value = decode(entry.value) as TranscoderEntry | undefined;
    if (!value || typeof value.id !== 'string') return;
    this.live.set(entry.key, value);
    this.revisions.set(entry.key, entry.revision);
    const goneAt = this.gone.get(entry.key);
    // A heartbeat after it was found gone: a process serves that subject again.
    if (goneAt !== undefined && entry.revision > goneAt) this.gone.delete(entry.key);
  }
}

/** A transcoder's own key: written at start and every HEARTBEAT_MS, deleted when it stops. */
export class TranscoderHeartbeat {
  private timer: NodeJS.Timeout | undefined;

  private constructor(
    private readonly bucket: RecreatingBucket,
    private readonly entry: () => TranscoderEntry,
  ) {}

  static async start(nc: NatsConnection, prefix: string, replicas: number, entry: () => TranscoderEntry): Promise<TranscoderHeartbeat> {
    // Memory-backed: a NATS server that restarted comes back without it, and the next beat makes it again.
    const open = () => openTranscodersBucket(nc, prefix, replicas);
    const heartbeat = new TranscoderHeartbeat(new RecreatingBucket(await open(), open), entry);
    await heartbeat.beat();
    heartbeat.timer = setInterval(() => void heartbeat.beat().catch(() => undefined), HEARTBEAT_MS);
    heartbeat.timer.unref();
    return heartbeat;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.bucket.use((kv) => kv.delete(this.entry().id)).catch(() => undefined);
  }

  private async beat(): Promise<void> {
    const entry = this.entry();
    await this.bucket.use((kv) => kv.put(entry.id, encode(entry)));
  }
}
