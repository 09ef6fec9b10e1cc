/**
 * Slices held in memory for a sequential reader about to ask for them: the ones readahead
 * just fetched from the upstream, and cached ones readahead read back from disk. Answering the
 * next request from memory takes the disk read (a trip through libuv's thread pool, then a
 * copy) off the request's path while the reader is still receiving the slice before it; on a
 * sequential read that trip was about a third of a hit's time (bench/media-proxy.ts).
 *
 * Bounded in bytes, oldest first out, and entries older than `maxAgeMs` are dropped when next
 * looked at: a reader who stopped costs at most `maxBytes` for a short while. Each entry is
 * tagged with the version (gen) of the resource it belongs to; the cache checks it on use.
 * An entry holds its lease (slice-buffers.ts) until it is dropped.
 */

import type { SliceLease } from './slice-buffers.js';

export interface WarmSlice {
  gen: string;
  /** Held by the warm slices until dropped, or until a reader takes the slice over. */
  lease: SliceLease;
}

interface Entry extends WarmSlice {
  key: string;
  at: number;
}

export class WarmSlices {
  private readonly entries = new Map<string, Entry>();
  private total = 0;

  constructor(
    private readonly maxBytes: number,
    private readonly maxAgeMs: number,
  ) {}

  has(key: string, index: number): boolean {
    return this.get(key, index) !== undefined;
  }

  /**
   * Hands the slice over to the caller, who then holds its lease: a slice read ahead is for
   * one reader, and giving its buffer back to the pool as soon as that reader is done keeps
   * the few buffers in use hot in the CPU cache (bench:media measured the difference).
   */
  take(key: string, index: number): WarmSlice | undefined {
    const slice = this.get(key, index);
    if (slice) {
      this.entries.delete(`${key}:${index}`);
      this.total -= slice.lease.bytes.length;
    }
    return slice;
  }

  private get(key: string, index: number): WarmSlice | undefined {
    const id = `${key}:${index}`;
    const entry = this.entries.get(id);
    if (entry && Date.now() - entry.at > this.maxAgeMs) {
      this.delete(id, entry);
      return undefined;
    }
    return entry;
  }

  /** Takes over the caller's hold of the slice's lease. */
  put(key: string, index: number, slice: WarmSlice): void {
    if (slice.lease.bytes.length > this.maxBytes) {
      slice.lease.release();
      return;
    }
    const id = `${key}:${index}`;
    const old = this.entries.get(id);
    if (old) this.delete(id, old);
    this.entries.set(id, { ...slice, key, at: Date.now() });
    this.total += slice.lease.bytes.length;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxBytes) break;
      this.delete(oldest, entry);
    }
  }

  /** Forgets every slice of a resource (it changed, or its slices were dropped). */
  drop(key: string): void {
    for (const [id, entry] of this.entries) if (entry.key === key) this.delete(id, entry);
  }

  private delete(id: string, entry: Entry): void {
    this.entries.delete(id);
    this.total -= entry.lease.bytes.length;
    entry.lease.release();
  }
}
