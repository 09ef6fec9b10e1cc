/**
 * The media proxy's slice cache: upstream resources cached on disk in aligned slices (2 MiB by
 * default), evicted least recently used first to stay within a size. The proxy calls `serve`
 * with the client's method and Range and a `SliceResource` that can fetch one byte range; the
 * answer's body is assembled slice by slice, from memory or disk where a slice is cached and
 * from the upstream where it is not, in order, without holding the whole range in memory: one
 * Buffer for a range within a slice, pieces for a longer one (types.ts, slice-buffers.ts).
 *
 * - A slice is fetched once however many readers want it (Flights), into memory; once its
 *   length and Content-Range are verified it is written to a temporary file and renamed into
 *   place. Readers wait for the whole slice and are then answered from those bytes: simpler
 *   than streaming a slice still arriving, at the cost of first-byte latency of one slice on a
 *   miss (2 MiB: milliseconds from a nearby upstream, longer from a slow one).
 * - Per resource the cache keeps size, ETag, Last-Modified and Content-Type. A slice fetched
 *   with other validators means the upstream file changed: every other slice of it is dropped.
 *   Metadata older than `revalidateAfterMs` is confirmed before it is used: with a conditional
 *   request for the first slice needed when that slice is cached (304 keeps everything), or
 *   by fetching that slice when it is not (its validators decide).
 * - An upstream that answers 200 to a Range request cannot be sliced: its reply is handed back
 *   for the proxy to pass through and nothing is written.
 * - The index is rebuilt from the directory at open (slice-files.ts), so the cache survives a
 *   restart; rebuilt metadata counts as stale, so the first use revalidates it.
 */
import { open as openFile, rename, unlink, type FileHandle } from 'node:fs/promises';
import type { Registry } from 'prom-client';
import { AppError } from '../../errors/index.js';
import type { Logger } from '../../observability/index.js';
import { planRange, probeSlice } from './client-range.js';
import { Flights } from './flights.js';
import { SliceCacheMeter } from './metrics.js';
import { DEFAULT_READAHEAD, Readahead, type ReadaheadOptions } from './readahead.js';
import { fetchSlice, type FetchedSlice } from './slice-fetch.js';
import {
  ignoreMissing,
  readSliceInto,
  removeMeta,
  resourceKey,
  scanCacheDir,
  slicePath,
  tempPath,
  versionOf,
  writeMeta,
  writeSliceFile,
  type ResourceMeta,
} from './slice-files.js';
import { leaseView, SliceBuffers, type SliceLease } from './slice-buffers.js';
import { SliceIndex, type SliceEntry } from './slice-index.js';
import type { CacheAnswer, ClientRead, SliceCacheApi, SliceCacheStats, SliceResource, UpstreamReply } from './types.js';
import { WarmSlices } from './warm-slices.js';

export const DEFAULT_SLICE_BYTES = 2 * 1024 * 1024;
export const DEFAULT_REVALIDATE_AFTER_MS = 60_000;
/** A resource changing again and again while one request is answered gives up after this. */
const MAX_ATTEMPTS = 3;

export interface SliceCacheOptions {
  /** The cache directory (`<data_dir>/slice-cache`); created when missing. */
  dir: string;
  /** Bytes of slices kept on disk; at least one slice. */
  maxBytes: number;
  sliceBytes?: number;
  /** Age after which cached metadata is confirmed with the upstream before use. */
  revalidateAfterMs?: number;
  logger: Logger;
  /** The process registry served at `/metrics`; without it no series are registered. */
  registry?: Registry;
  /** Readahead for sequential readers (readahead.ts); `{ depth: 0 }` turns it off. */
  readahead?: Partial<ReadaheadOptions>;
  /**
   * Bytes of verified slices waiting to be written to disk, at most (default 16 slices). Past
   * it a fetched slice is answered but not cached, and readahead pauses: a disk slower than the
   * upstream must not turn into unbounded memory.
   */
  maxPendingWriteBytes?: number;
  /** Bytes of slices held in memory for sequential readers (warm-slices.ts; default 16 slices). */
  maxWarmBytes?: number;
}

/** A slice just fetched, in memory: its bytes (a hold on them) and the version they belong to. */
interface FreshSlice {
  kind: 'stored';
  lease: SliceLease;
  gen: string;
}

/** Where a reader takes a slice's bytes from. */
type SliceSource = { kind: 'file'; handle: FileHandle } | { kind: 'memory'; lease: SliceLease };

type FlightResult =
  | FreshSlice
  | { kind: 'not-ranged'; reply: UpstreamReply; claimed: boolean }
  | { kind: 'unsatisfiable'; total: number | undefined };

type SliceLoad =
  | FreshSlice
  | { kind: 'not-ranged'; reply: UpstreamReply }
  | { kind: 'unsatisfiable'; total: number | undefined }
  /** Another reader took the upstream's 200 reply; ask again. */
  | { kind: 'retry' };

export class SliceCache implements SliceCacheApi {
  private readonly metas = new Map<string, ResourceMeta>();
  private readonly index: SliceIndex;
  private readonly flights = new Flights<FlightResult>({
    share: (result) => result.kind === 'stored' && result.lease.retain(),
    drop: (result) => result.kind === 'stored' && result.lease.release(),
  });
  private readonly revalidations = new Flights<'fresh' | 'changed'>();
  /** Slices fetched and verified whose files are still being written (`key:index`). */
  private readonly writing = new Map<string, FreshSlice>();
  private readonly pendingWrites = new Set<Promise<void>>();
  private pendingWriteBytes = 0;
  private readonly maxPendingWriteBytes: number;
  private readonly readahead: Readahead;
  private readonly warm: WarmSlices;
  private readonly buffers: SliceBuffers;
  private readonly take = (length: number): SliceLease => this.buffers.take(length);
  private readonly meter: SliceCacheMeter;
  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly sliceBytes: number;
  private readonly revalidateAfterMs: number;
  private readonly logger: Logger;
  private closed = false;

  private constructor(options: SliceCacheOptions) {
    this.dir = options.dir;
    this.maxBytes = options.maxBytes;
    this.sliceBytes = options.sliceBytes ?? DEFAULT_SLICE_BYTES;
    this.revalidateAfterMs = options.revalidateAfterMs ?? DEFAULT_REVALIDATE_AFTER_MS;
    this.logger = options.logger;
    this.maxPendingWriteBytes = options.maxPendingWriteBytes ?? 16 * this.sliceBytes;
    this.index = new SliceIndex(this.maxBytes, (evicted) => this.evicted(evicted));
    const readahead = { ...DEFAULT_READAHEAD, ...options.readahead };
    // Slices read ahead must not push out the ones being read: a quarter of the cache at most.
    readahead.depth = Math.min(readahead.depth, Math.floor(this.maxBytes / this.sliceBytes / 4));
    const maxWarmBytes = options.maxWarmBytes ?? 16 * this.sliceBytes;
    this.warm = new WarmSlices(maxWarmBytes, readahead.idleMs);
    // Idle buffers kept: as many as the warm slices may hold (a burst past that is collected).
    this.buffers = new SliceBuffers(this.sliceBytes, Math.ceil(maxWarmBytes / this.sliceBytes));
    this.readahead = new Readahead(readahead, {
      // In memory or on its way there. A slice only on disk is read ahead too, into memory.
      present: (key, i) => this.warm.has(key, i) || this.writing.has(`${key}:${i}`) || this.flights.has(`${key}:${i}`),
      wanted: () => this.pendingWriteBytes < this.maxPendingWriteBytes / 2,
      started: () => this.meter.readahead(),
    });
    this.meter = new SliceCacheMeter(options.registry, {
      entries: () => this.index.count,
      sizeBytes: () => this.index.bytes,
      maxBytes: this.maxBytes,
    });
  }

  static async open(options: SliceCacheOptions): Promise<SliceCache> {
    const sliceBytes = options.sliceBytes ?? DEFAULT_SLICE_BYTES;
    if (!Number.isSafeInteger(sliceBytes) || sliceBytes <= 0) throw new AppError('invalid_argument', `slice size must be a positive integer, got ${sliceBytes}`);
    if (!(options.maxBytes >= sliceBytes)) {
      throw new AppError('invalid_argument', `proxy_slice_cache.size_mb: the cache must hold at least one ${sliceBytes}-byte slice, got ${options.maxBytes} bytes`);
    }
    const scanned = await scanCacheDir(options.dir, sliceBytes);
    const cache = new SliceCache(options);
    for (const meta of scanned.metas) cache.metas.set(meta.key, meta);
    for (const slice of scanned.slices) cache.index.add(slice);
    options.logger.info({ dir: options.dir, slices: cache.index.count, bytes: cache.index.bytes, maxBytes: options.maxBytes }, 'slice cache opened');
    return cache;
  }

  stats(): SliceCacheStats {
    return { ...this.meter.counts, entries: this.index.count, sizeBytes: this.index.bytes, maxBytes: this.maxBytes };
  }

  /**
   * Resolves once every slice fetched so far is on disk and indexed (slices are served before
   * they are written). For shutdown, benchmarks and tests that look at the directory.
   */
  async settled(): Promise<void> {
    while (this.pendingWrites.size > 0 || this.readahead.inFlight > 0) {
      await this.readahead.settled();
      await Promise.all([...this.pendingWrites]);
    }
  }

  /** Aborts upstream reads in flight and finishes the slice writes; what is on disk stays for the next open. */
  async close(): Promise<void> {
    this.closed = true;
    this.readahead.cancel();
    const reason = new AppError('unavailable', 'the slice cache is closing');
    await Promise.all([this.flights.abortAll(reason), this.revalidations.abortAll(reason)]);
    await this.settled();
  }

  async serve(read: ClientRead, resource: SliceResource, signal: AbortSignal): Promise<CacheAnswer> {
    if (this.closed) throw new AppError('unavailable', 'the slice cache is closed');
    const key = resourceKey(resource.identity);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const answer = await this.tryServe(read, resource, key, signal);
      if (answer !== 'retry') return answer;
    }
    throw new AppError('bad_gateway', 'the upstream resource kept changing while it was being read');
  }

  /** One attempt; 'retry' when the resource turned out to have changed before any header was sent. */
  private async tryServe(read: ClientRead, resource: SliceResource, key: string, signal: AbortSignal): Promise<CacheAnswer | 'retry'> {
    // Slices this attempt fetched, each held until a reader takes it; what is left is let go.
    const fresh = new Map<number, FreshSlice>();
    try {
      return await this.attempt(read, resource, key, signal, fresh);
    } finally {
      for (const slice of fresh.values()) slice.lease.release();
    }
  }

  private async attempt(read: ClientRead, resource: SliceResource, key: string, signal: AbortSignal, fresh: Map<number, FreshSlice>): Promise<CacheAnswer | 'retry'> {
    let meta = this.metas.get(key);
    if (!meta || Date.now() - meta.validatedAt >= this.revalidateAfterMs) {
      const probe = probeSlice(read.range, this.sliceBytes);
      const first = meta ? Math.min(probe, Math.max(0, Math.ceil(meta.size / this.sliceBytes) - 1)) : probe;
      const known = meta;
      if (known && (this.index.has(key, first) || this.writing.has(`${key}:${first}`))) {
        const outcome = await this.revalidations.join(key, (s) => this.revalidate(key, resource, known, first, s), signal);
        if (outcome === 'changed') return 'retry';
      } else {
        const load = await this.loadSlice(key, resource, first, signal);
        if (load.kind === 'not-ranged') return { kind: 'passthrough', reply: load.reply };
        if (load.kind === 'retry') return 'retry';
        if (load.kind === 'unsatisfiable') {
          if (!known) return unsatisfiable(read, load.total);
          this.forgetResource(key, 'the upstream no longer has the bytes it had');
          return 'retry';
        }
        fresh.set(first, load);
      }
      meta = this.metas.get(key);
      if (!meta) return 'retry';
    }

    const plan = planRange(read.range, meta.size);
    if (plan.kind === 'unsatisfiable') return unsatisfiable(read, meta.size);
    const start = plan.kind === 'range' ? plan.start : 0;
    const end = plan.kind === 'range' ? plan.end : meta.size - 1;
    const headers: Record<string, string> = {
      'accept-ranges': 'bytes',
      'content-type': meta.contentType ?? 'application/octet-stream',
      'content-length': String(end - start + 1),
      ...(plan.kind === 'range' ? { 'content-range': `bytes ${start}-${end}/${meta.size}` } : {}),
      ...(meta.etag === undefined ? {} : { etag: meta.etag }),
      ...(meta.lastModified === undefined ? {} : { 'last-modified': meta.lastModified }),
    };
    const status = plan.kind === 'range' ? 206 : 200;
    if (read.method === 'HEAD' || end < start) return { kind: 'served', status, headers, body: read.method === 'HEAD' ? null : Buffer.alloc(0) };
    if (Math.floor(start / this.sliceBytes) === Math.floor(end / this.sliceBytes)) {
      // One slice (a player's or the bench's slice-sized ranges): the bytes in hand before the
      // answer, which then goes out in one write, and a failure is an error status, not a cut
      // body. Once handed over the answer counts as read: a client leaving while the buffer is
      // sent (milliseconds) leaves its readahead to be claimed or to time out.
      let answered = false;
      this.readahead.enter(key);
      try {
        const lease = await this.sliceBytesOf(key, resource, meta, Math.floor(start / this.sliceBytes), start, end, signal, fresh);
        answered = true;
        return { kind: 'served', status, headers, body: lease.bytes, release: lease.release };
      } finally {
        this.readahead.leave(key, !answered);
      }
    }
    // A client that leaves (a seek, a closed player) makes the resource's readahead useless. Its
    // signal may also abort once it has been given everything (a server aborting on every
    // 'close'): only pieces not all asked for count as leaving.
    const progress = { ended: false };
    const left = (): boolean => signal.aborted && !progress.ended;
    const handed = new Map(fresh);
    fresh.clear();
    const pieces = this.bodyOf(key, resource, meta, start, end, signal, handed, progress);
    signal.addEventListener('abort', () => left() && this.readahead.abandoned(key), { once: true });
    return { kind: 'served', status, headers, body: { pieces } };
  }

  /** The bytes [from, to] of one version of the resource, slice after slice. */
  private async *bodyOf(
    key: string,
    resource: SliceResource,
    version: ResourceMeta,
    from: number,
    to: number,
    signal: AbortSignal,
    fresh: Map<number, FreshSlice>,
    progress: { ended: boolean },
  ): AsyncGenerator<SliceLease> {
    const S = this.sliceBytes;
    this.readahead.enter(key);
    try {
      for (let i = Math.floor(from / S); i <= Math.floor(to / S); i++) {
        const base = i * S;
        // The writer releases each piece once written (SlicePieces).
        yield await this.sliceBytesOf(key, resource, version, i, Math.max(from, base), Math.min(to, base + S - 1), signal, fresh);
      }
      progress.ended = true;
    } finally {
      for (const slice of fresh.values()) slice.lease.release();
      // Asked for every piece or not; a client leaving while the last one is written is not seen.
      this.readahead.leave(key, !progress.ended);
    }
  }

  /**
   * Bytes [from, to] of slice `i` (a reader of its resource has entered the readahead), lent to
   * the caller. With the slice in hand, the next ones are read ahead while this one is sent, if
   * the reader is sequential.
   */
  private async sliceBytesOf(
    key: string,
    resource: SliceResource,
    version: ResourceMeta,
    i: number,
    from: number,
    to: number,
    signal: AbortSignal,
    fresh: Map<number, FreshSlice>,
  ): Promise<SliceLease> {
    const base = i * this.sliceBytes;
    const source = await this.openSlice(key, resource, version, i, signal, fresh, to - from + 1);
    const lastIndex = Math.ceil(version.size / this.sliceBytes) - 1;
    const toEnd = to === Math.min(version.size, base + this.sliceBytes) - 1;
    this.readahead.read(key, i, toEnd, lastIndex, (next, s) => this.fetchAhead(key, resource, next, s));
    if (source.kind === 'memory') return leaseView(source.lease, from - base, to - base + 1);
    return this.readFile(source.handle, from - base, to - from + 1);
  }

  /** `length` bytes of an open slice file from `start` on, in a lease; the file is closed. */
  private async readFile(handle: FileHandle, start: number, length: number): Promise<SliceLease> {
    const lease = this.take(length);
    try {
      await readSliceInto(handle, lease.bytes, start);
      return lease;
    } catch (err) {
      lease.release();
      throw err;
    } finally {
      await handle.close();
    }
  }

  /**
   * The bytes of slice `i` of `version`: those this request just fetched, or an open file of
   * the cached slice, or fetched now when it is not cached. A cached file is opened before
   * anything else can happen: an eviction deleting it afterwards does not disturb the reader
   * (the bytes stay readable until the handle closes).
   */
  private async openSlice(
    key: string,
    resource: SliceResource,
    version: ResourceMeta,
    i: number,
    signal: AbortSignal,
    fresh: Map<number, FreshSlice>,
    bytes: number,
  ): Promise<SliceSource> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const mine = fresh.get(i);
      if (mine) {
        fresh.delete(i);
        if (mine.gen !== version.gen) {
          mine.lease.release();
          throw changedWhileServing();
        }
        return { kind: 'memory', lease: mine.lease };
      }
      const written = this.writing.get(`${key}:${i}`);
      if (written?.gen === version.gen) {
        this.meter.hit(bytes);
        written.lease.retain();
        return { kind: 'memory', lease: written.lease };
      }
      const warm = this.warm.take(key, i);
      if (warm?.gen === version.gen) {
        this.meter.hit(bytes);
        return { kind: 'memory', lease: warm.lease };
      }
      warm?.lease.release();
      const entry = this.index.touch(key, i);
      if (entry) {
        if (entry.gen !== version.gen) throw changedWhileServing();
        const handle = await openFile(entry.path, 'r').catch((err: unknown) => ignoreMissing(err));
        if (handle) {
          this.meter.hit(bytes);
          return { kind: 'file', handle };
        }
        if (this.index.peek(key, i) === entry) this.index.remove(key, i);
        continue;
      }
      const load = await this.loadSlice(key, resource, i, signal);
      if (load.kind === 'not-ranged') load.reply.body.destroy();
      if (load.kind === 'stored') fresh.set(i, load);
      else if (load.kind !== 'retry') {
        throw new AppError('bad_gateway', `the upstream stopped answering ranged requests (slice ${i} of a resource it served in ranges)`);
      }
    }
    throw new AppError('bad_gateway', `slice ${i} was evicted before it could be read: the slice cache is too small for the reads in progress`);
  }

  /** Waits until slice `i` is on disk, fetching it unless another reader already is. */
  private async loadSlice(key: string, resource: SliceResource, i: number, signal: AbortSignal): Promise<SliceLoad> {
    this.meter.miss();
    const result = await this.flights.join(`${key}:${i}`, (s) => this.fetchIntoCache(key, resource, i, s), signal);
    if (result.kind !== 'not-ranged') return result;
    // One reply body can go to one client only; the others ask the upstream again.
    if (result.claimed) return { kind: 'retry' };
    result.claimed = true;
    return { kind: 'not-ranged', reply: result.reply };
  }

  /**
   * A readahead fetch, neither a hit nor a miss, into memory for the reader's next request: a
   * cached slice is read from disk, any other joins or starts its upstream flight like a reader.
   */
  private async fetchAhead(key: string, resource: SliceResource, i: number, signal: AbortSignal): Promise<void> {
    const cached = this.index.peek(key, i);
    if (cached) {
      const handle = await openFile(cached.path, 'r').catch((err: unknown) => ignoreMissing(err));
      if (!handle) return;
      const lease = await this.readFile(handle, 0, cached.bytes);
      // Evicted or replaced meanwhile: the reader will find out for itself.
      if (this.index.peek(key, i) === cached) this.warm.put(key, i, { gen: cached.gen, lease });
      else lease.release();
      return;
    }
    const result = await this.flights.join(`${key}:${i}`, (s) => this.fetchIntoCache(key, resource, i, s), signal);
    if (result.kind === 'stored') this.warm.put(key, i, result);
    if (result.kind === 'not-ranged' && !result.claimed) {
      // Nobody asked for this reply: a reader asking for the slice gets 'retry' and asks again.
      result.claimed = true;
      result.reply.body.destroy();
    }
  }

  private async fetchIntoCache(key: string, resource: SliceResource, i: number, signal: AbortSignal): Promise<FlightResult> {
    const start = i * this.sliceBytes;
    // The full slice is always asked for: the upstream clips it at the end of the resource and
    // says the size, which may have changed since it was cached.
    const outcome = await fetchSlice(resource, { start, end: start + this.sliceBytes - 1 }, undefined, signal, this.take);
    if (outcome.kind === 'not-ranged') return { ...outcome, claimed: false };
    if (outcome.kind === 'unsatisfiable') return outcome;
    if (outcome.kind === 'not-modified') throw new AppError('bad_gateway', 'the upstream answered 304 to an unconditional request');
    this.meter.fetched(outcome.length);
    const meta = this.keep(key, i, outcome);
    // The flight's hold: each waiter is handed its own, then this one is dropped (Flights).
    return { kind: 'stored', lease: outcome.lease, gen: meta.gen };
  }

  /** Conditional request for cached slice `i`: does the cached version still hold? */
  private async revalidate(key: string, resource: SliceResource, meta: ResourceMeta, i: number, signal: AbortSignal): Promise<'fresh' | 'changed'> {
    const start = i * this.sliceBytes;
    const validators = {
      ...(meta.etag === undefined ? {} : { etag: meta.etag }),
      ...(meta.lastModified === undefined ? {} : { lastModified: meta.lastModified }),
    };
    const outcome = await fetchSlice(resource, { start, end: start + this.sliceBytes - 1 }, validators, signal, this.take);
    this.meter.revalidated();
    switch (outcome.kind) {
      case 'not-modified':
        meta.validatedAt = Date.now();
        return 'fresh';
      case 'slice': {
        // The upstream ignored the condition or the resource changed: its validators say which.
        this.meter.fetched(outcome.length);
        const kept = this.keep(key, i, outcome);
        outcome.lease.release();
        return kept.gen === meta.gen ? 'fresh' : 'changed';
      }
      case 'not-ranged':
        outcome.reply.body.destroy();
        this.forgetResource(key, 'the upstream no longer answers ranged requests');
        return 'changed';
      case 'unsatisfiable':
        this.forgetResource(key, 'the upstream no longer has the bytes it had');
        return 'changed';
    }
  }

  /**
   * Takes a verified slice under the version its validators name and writes it to disk in the
   * background. Until it is renamed into place and indexed, readers find its bytes in
   * `writing`: the write (about as long as the download itself on a busy disk, measured with
   * bench/media-proxy.ts) is not on any reader's path.
   */
  private keep(key: string, i: number, slice: FetchedSlice): ResourceMeta {
    const meta = this.adopt(key, slice);
    if (this.pendingWriteBytes + slice.length > this.maxPendingWriteBytes) {
      // The disk is behind: answer the readers from memory but do not cache this slice.
      this.logger.debug({ key, slice: i, pendingWriteBytes: this.pendingWriteBytes }, 'slice cache: write backlog full, slice not cached');
      return meta;
    }
    const id = `${key}:${i}`;
    // The write's own hold, let go once the bytes are on disk; readers in `writing` take theirs.
    slice.lease.retain();
    const fresh: FreshSlice = { kind: 'stored', lease: slice.lease, gen: meta.gen };
    this.writing.set(id, fresh);
    this.pendingWriteBytes += slice.length;
    const written: Promise<void> = this.write(key, i, meta, slice.length, slice.lease.bytes).finally(() => {
      if (this.writing.get(id) === fresh) this.writing.delete(id);
      slice.lease.release();
      this.pendingWriteBytes -= slice.length;
      this.pendingWrites.delete(written);
    });
    this.pendingWrites.add(written);
    return meta;
  }

  /** Temporary file, rename, index: a slice file is complete or absent. */
  private async write(key: string, i: number, meta: ResourceMeta, length: number, bytes: Buffer): Promise<void> {
    const path = slicePath(this.dir, key, i, meta.gen);
    const temp = tempPath(this.dir);
    try {
      await writeSliceFile(temp, bytes);
      await rename(temp, path);
    } catch (err) {
      // A full or failing disk costs the caching, not the answer: the readers have the bytes.
      this.logger.warn({ err, key, slice: i }, 'slice cache: could not write a slice');
      await unlink(temp).catch(() => undefined);
      return;
    }
    const current = this.metas.get(key);
    if (current && current.gen !== meta.gen) {
      // The resource changed again while this slice was written: it is stale already.
      await unlink(path).catch(ignoreMissing);
      return;
    }
    if (!current) this.setMeta(meta);
    const replaced = this.index.add({ key, index: i, gen: meta.gen, path, bytes: length });
    if (replaced) this.deleteFiles([replaced]);
  }

  /** The metadata the fetched slice belongs to; a different version drops the old one's slices. */
  private adopt(key: string, slice: FetchedSlice): ResourceMeta {
    const { etag, lastModified } = slice.validators;
    const gen = versionOf(slice.total, etag, lastModified);
    const current = this.metas.get(key);
    if (current?.gen === gen) {
      current.validatedAt = Date.now();
      return current;
    }
    if (current) this.dropSlices(key, 'the upstream resource changed (size or validators)');
    const meta: ResourceMeta = {
      key,
      size: slice.total,
      gen,
      validatedAt: Date.now(),
      ...(etag === undefined ? {} : { etag }),
      ...(lastModified === undefined ? {} : { lastModified }),
      ...(slice.contentType === undefined ? {} : { contentType: slice.contentType }),
    };
    this.setMeta(meta);
    return meta;
  }

  private setMeta(meta: ResourceMeta): void {
    this.metas.set(meta.key, meta);
    writeMeta(this.dir, meta, this.sliceBytes).catch((err: unknown) => this.logger.warn({ err, key: meta.key }, 'slice cache: could not write metadata'));
  }

  private dropSlices(key: string, why: string): void {
    for (const id of this.writing.keys()) if (id.startsWith(`${key}:`)) this.writing.delete(id);
    this.warm.drop(key);
    const dropped = this.index.removeResource(key);
    if (dropped.length > 0) this.logger.info({ key, slices: dropped.length, why }, 'slice cache: dropped the slices of a resource');
    this.deleteFiles(dropped);
  }

  private forgetResource(key: string, why: string): void {
    this.dropSlices(key, why);
    this.metas.delete(key);
    removeMeta(this.dir, key).catch((err: unknown) => this.logger.warn({ err, key }, 'slice cache: could not remove metadata'));
  }

  private evicted(entries: SliceEntry[]): void {
    this.meter.evicted(entries.length);
    this.deleteFiles(entries);
    // A resource with no slice left needs no metadata: the next read fetches and learns it again.
    for (const key of new Set(entries.map((e) => e.key))) {
      if (this.index.hasResource(key)) continue;
      this.metas.delete(key);
      removeMeta(this.dir, key).catch((err: unknown) => this.logger.warn({ err, key }, 'slice cache: could not remove metadata'));
    }
  }

  private deleteFiles(entries: SliceEntry[]): void {
    for (const entry of entries) {
      unlink(entry.path).catch((err: unknown) => {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') this.logger.warn({ err, path: entry.path }, 'slice cache: could not delete a slice');
      });
    }
  }
}

function unsatisfiable(read: ClientRead, total: number | undefined): CacheAnswer {
  // An empty resource has no byte to range over: without a Range it is an empty 200.
  if (read.range === undefined && total === 0) {
    return { kind: 'served', status: 200, headers: { 'accept-ranges': 'bytes', 'content-length': '0' }, body: read.method === 'HEAD' ? null : Buffer.alloc(0) };
  }
  return {
    kind: 'served',
    status: 416,
    headers: { 'accept-ranges': 'bytes', 'content-length': '0', ...(total === undefined ? {} : { 'content-range': `bytes */${total}` }) },
    body: null,
  };
}

function changedWhileServing(): AppError {
  return new AppError('bad_gateway', 'the upstream resource changed while it was being served');
}

