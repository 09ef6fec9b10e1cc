/**
 * The disk under all rung encoders of this process (media/transcode/rung-encoder.ts): one root
 * folder with a folder per rung, and a bound on the bytes of their segments. Past the bound the
 * least recently used finished segments go, taken only from rungs that no encoder is writing to
 * right now (the running ones' segments are what viewers are about to ask for). Init segments
 * are a few kilobytes and stay until the rung is dropped. Counts for metrics: bytes on disk,
 * segments served, hits (on disk at the ask) and misses (waited for an encoder).
 */
import { mkdir, rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';

export interface SegmentStoreOptions {
  root: string;
  /** Bytes of segments kept on disk before the least recently used go. */
  maxBytes: number;
}

export interface SegmentStoreCounts {
  bytes: number;
  segments: number;
  served: number;
  hits: number;
  misses: number;
}

/** One rung's segments on disk. */
export class RungShelf {
  /** Segment number → bytes, of the segments on disk. */
  readonly sizes = new Map<number, number>();
  /** Set by the rung's encoder while ffmpeg writes here: its segments are not evicted. */
  writing = false;

  constructor(
    private readonly store: SegmentStore,
    readonly key: string,
    readonly folder: string,
  ) {}

  has(n: number): boolean {
    return this.sizes.has(n);
  }

  /** Segment `n` (of `bytes`) is complete on disk. */
  added(n: number, bytes: number): void {
    this.store.added(this, n, bytes);
  }

  /** Segment `n` was handed out: `hit` when it was on disk at the ask. */
  served(n: number, hit: boolean): void {
    this.store.served(this, n, hit);
  }
}

export class SegmentStore {
  private readonly shelves = new Map<string, Promise<RungShelf>>();
  /** `key\0n` of every segment on disk, least recently used first (a Map keeps insertion order). */
  private readonly recency = new Map<string, { shelf: RungShelf; n: number }>();
  private readonly counts: SegmentStoreCounts = { bytes: 0, segments: 0, served: 0, hits: 0, misses: 0 };

  constructor(private readonly options: SegmentStoreOptions) {}

  /** The shelf of rung `key` (an item and rung, made of [A-Za-z0-9_-] by the caller), its folder created empty. */
  shelf(key: string): Promise<RungShelf> {
    if (!/^[\w-]+$/.test(key)) throw new Error(`SegmentStore: a rung key of letters, digits, - and _ only: ${key}`);
    const existing = this.shelves.get(key);
    if (existing) return existing;
    const shelf = new RungShelf(this, key, join(this.options.root, key));
    const ready = (async () => {
      await rm(shelf.folder, { recursive: true, force: true });
      await mkdir(shelf.folder, { recursive: true });
      return shelf;
    })();
    this.shelves.set(key, ready);
    return ready;
  }

  /** Forgets rung `key` and deletes its folder. */
  async drop(key: string): Promise<void> {
    const opening = this.shelves.get(key);
    if (!opening) return;
    this.shelves.delete(key);
    const shelf = await opening;
    for (const n of shelf.sizes.keys()) this.forget(shelf, n);
    await rm(shelf.folder, { recursive: true, force: true });
  }

  stats(): SegmentStoreCounts {
    return { ...this.counts };
  }

  added(shelf: RungShelf, n: number, bytes: number): void {
    const before = shelf.sizes.get(n);
    if (before !== undefined) this.forget(shelf, n);
    shelf.sizes.set(n, bytes);
    this.recency.set(`${shelf.key}\0${n}`, { shelf, n });
    this.counts.bytes += bytes;
    this.counts.segments += 1;
    this.evict();
  }

  served(shelf: RungShelf, n: number, hit: boolean): void {
    this.counts.served += 1;
    if (hit) this.counts.hits += 1;
    else this.counts.misses += 1;
    const id = `${shelf.key}\0${n}`;
    const entry = this.recency.get(id);
    if (entry) {
      this.recency.delete(id);
      this.recency.set(id, entry);
    }
  }

  private forget(shelf: RungShelf, n: number): void {
    const bytes = shelf.sizes.get(n);
    if (bytes === undefined) return;
    shelf.sizes.delete(n);
    this.recency.delete(`${shelf.key}\0${n}`);
    this.counts.bytes -= bytes;
    this.counts.segments -= 1;
  }

  /** Deletes least recently used segments of idle rungs until the bytes fit (or only busy rungs' are left). */
  private evict(): void {
    if (this.counts.bytes <= this.options.maxBytes) return;
    for (const { shelf, n } of [...this.recency.values()]) {
      if (this.counts.bytes <= this.options.maxBytes) break;
      if (shelf.writing) continue;
      this.forget(shelf, n);
      // A reader that opened it already keeps its bytes (unlink leaves open files readable).
      void unlink(join(shelf.folder, `${n}.m4s`)).catch(() => undefined);
    }
  }
}
