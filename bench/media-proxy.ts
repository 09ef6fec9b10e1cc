/**
 * Media proxy figures (issue 12), the parts that do not need the proxy routes: a 1 GiB file
 * served by Debian's nginx, read in 2 MiB ranges one after the other (a player seeking
 * forward), and 16 concurrent readers of one uncached file with the upstream requests per
 * slice counted from nginx's access log.
 *
 * Run alone (`node dist/bench/media-proxy.js`, or through infra/bench.sh) it prints nginx's
 * direct throughput and the slice cache's on a miss and on a hit, driven directly through
 * `SliceCache.serve` with the test node:http upstream fetch (test/fixtures/slice-upstream.ts):
 * that is the cache's own cost, without the proxy's HTTP hop to the client. The exported
 * functions take a `RangeReader`, so the same figures can be taken through the proxy's URL
 * once it exists: `sequentialThroughput(httpRangeReader(proxyUrl), size)`.
 *
 * Options through the environment: BENCH_MEDIA_BYTES (file size, default 1 GiB),
 * BENCH_MEDIA_CONCURRENT_BYTES (bytes each of the 16 readers reads, default 64 MiB).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SliceCache } from '../media/cache/slice-cache.js';
import type { SliceResource } from '../media/cache/types.js';
import { createLogger } from '../observability/logger.js';
import { startNginx, type Nginx } from '../test/fixtures/nginx.js';
import { httpSliceResource } from '../test/fixtures/slice-upstream.js';

export const MiB = 1024 * 1024;
export const GiB = 1024 * MiB;
export const RANGE_BYTES = 2 * MiB;

/** Reads bytes [start, end] (inclusive) somehow and resolves with how many arrived. */
export type RangeReader = (start: number, end: number) => Promise<number>;

/**
 * Writes a file of `bytes` quickly: one 16 MiB random block written over and over, each copy
 * stamped with its offset every 4 KiB so no two slices are alike (a cache keyed on content
 * would not be fooled, and a wrong offset shows).
 */
export async function createMediaFile(dir: string, bytes: number = GiB, name = 'media.bin'): Promise<{ path: string; name: string; size: number }> {
  const path = join(dir, name);
  const block = randomBytes(16 * MiB);
  const file = await open(path, 'w');
  try {
    for (let offset = 0; offset < bytes; offset += block.length) {
      const length = Math.min(block.length, bytes - offset);
      for (let at = 0; at < length; at += 4096) block.writeUInt32BE((offset + at) >>> 0, at);
      await file.write(block, 0, length, offset);
    }
  } finally {
    await file.close();
  }
  return { path, name, size: bytes };
}

/** GETs with a Range header over node:http, counting the body bytes without keeping them. */
export function httpRangeReader(url: string): RangeReader {
  return (start, end) =>
    new Promise((resolve, reject) => {
      const req = request(url, { headers: { range: `bytes=${start}-${end}` } }, (res) => {
        if (res.statusCode !== 206) {
          res.resume();
          reject(new Error(`${url} answered ${res.statusCode} to bytes=${start}-${end}`));
          return;
        }
        let received = 0;
        res.on('data', (chunk: Buffer) => (received += chunk.length));
        res.once('end', () => resolve(received));
        res.once('error', reject);
      });
      req.once('error', reject);
      req.end();
    });
}

/** Reads through `SliceCache.serve` directly, as the proxy route will. */
export function cacheRangeReader(cache: SliceCache, resource: SliceResource): RangeReader {
  return async (start, end) => {
    const answer = await cache.serve({ method: 'GET', range: `bytes=${start}-${end}` }, resource, new AbortController().signal);
    if (answer.kind !== 'served' || answer.status !== 206 || !answer.body) throw new Error(`the cache answered ${answer.kind} ${answer.kind === 'served' ? answer.status : ''}`);
    let received = 0;
    for await (const chunk of answer.body) received += (chunk as Buffer).length;
    return received;
  };
}

export interface Throughput {
  bytes: number;
  seconds: number;
  /** 10^6 bytes per second. */
  mbPerSecond: number;
}

/** Reads [0, size) in `rangeBytes` ranges one after the other; fails on any short answer. */
export async function sequentialThroughput(read: RangeReader, size: number, rangeBytes = RANGE_BYTES): Promise<Throughput> {
  const started = performance.now();
  for (let start = 0; start < size; start += rangeBytes) {
    const end = Math.min(size, start + rangeBytes) - 1;
    const received = await read(start, end);
    if (received !== end - start + 1) throw new Error(`bytes=${start}-${end}: received ${received} bytes`);
  }
  const seconds = (performance.now() - started) / 1000;
  return { bytes: size, seconds, mbPerSecond: size / 1e6 / seconds };
}

export interface CrowdResult {
  readers: number;
  slices: number;
  upstreamRequests: number;
  /** Upstream requests for the slice asked for most often (1 is the goal). */
  maxPerSlice: number;
  seconds: number;
}

/**
 * `readers` concurrent readers each read [0, bytes) of one file in 2 MiB ranges through
 * `read`; then nginx's access log says how often each slice reached the upstream. The file
 * must not have been read through the cache before (the point is concurrent misses).
 */
export async function concurrentReaders(
  read: RangeReader,
  nginx: Nginx,
  path: string,
  options: { bytes: number; readers?: number; rangeBytes?: number },
): Promise<CrowdResult> {
  const readers = options.readers ?? 16;
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  await nginx.clearRequests();
  const started = performance.now();
  await Promise.all(Array.from({ length: readers }, () => sequentialThroughput(read, options.bytes, rangeBytes)));
  const seconds = (performance.now() - started) / 1000;
  // nginx logs a request when it is done: wait until every slice has its line.
  const slices = Math.ceil(options.bytes / rangeBytes);
  const deadline = Date.now() + 10_000;
  let requests = (await nginx.requests()).filter((r) => r.path === path);
  while (new Set(requests.map((r) => r.range)).size < slices && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    requests = (await nginx.requests()).filter((r) => r.path === path);
  }
  const perSlice = new Map<string, number>();
  for (const r of requests) perSlice.set(r.range ?? '', (perSlice.get(r.range ?? '') ?? 0) + 1);
  return { readers, slices, upstreamRequests: requests.length, maxPerSlice: Math.max(0, ...perSlice.values()), seconds };
}

const fmt = (t: Throughput): string => `${t.mbPerSecond.toFixed(0).padStart(6)} MB/s  (${(t.bytes / MiB).toFixed(0)} MiB in ${t.seconds.toFixed(2)} s)`;

async function main(): Promise<void> {
  const size = Number(process.env.BENCH_MEDIA_BYTES ?? GiB);
  const crowdBytes = Math.min(size, Number(process.env.BENCH_MEDIA_CONCURRENT_BYTES ?? 64 * MiB));
  const root = await mkdtemp(join(tmpdir(), 'svc-bench-media-'));
  const cacheDir = await mkdtemp(join(tmpdir(), 'svc-bench-slices-'));
  let nginx: Nginx | undefined;
  let cache: SliceCache | undefined;
  try {
    const made = performance.now();
    const file = await createMediaFile(root, size);
    const crowdFile = await createMediaFile(root, crowdBytes, 'crowd.bin');
    console.log(`files: ${(size / MiB).toFixed(0)} MiB and ${(crowdBytes / MiB).toFixed(0)} MiB written in ${((performance.now() - made) / 1000).toFixed(1)} s`);
    nginx = await startNginx({ root });
    const url = `${nginx.url}/${file.name}`;

    await sequentialThroughput(httpRangeReader(url), Math.min(size, 64 * MiB)); // warm-up
    const direct = await sequentialThroughput(httpRangeReader(url), size);
    cache = await SliceCache.open({ dir: cacheDir, maxBytes: size + 2 * crowdBytes + 8 * RANGE_BYTES, logger: createLogger({ level: 'warn', destination: 'stderr' }) });
    const viaCache = cacheRangeReader(cache, httpSliceResource(url));
    const miss = await sequentialThroughput(viaCache, size);
    await cache.settled(); // every slice on disk: the hit run reads files, not the bytes still being written
    const hit = await sequentialThroughput(viaCache, size);
    console.log(`sequential reads in 2 MiB ranges of a ${(size / MiB).toFixed(0)} MiB file`);
    console.log(`  nginx direct (node:http client)   ${fmt(direct)}`);
    console.log(`  slice cache, miss (serve direct)  ${fmt(miss)}  ratio ${(miss.mbPerSecond / direct.mbPerSecond).toFixed(2)} (proxy target >= 0.6)`);
    console.log(`  slice cache, hit  (serve direct)  ${fmt(hit)}  ratio ${(hit.mbPerSecond / direct.mbPerSecond).toFixed(2)} (proxy target >= 0.9)`);

    const crowd = await concurrentReaders(cacheRangeReader(cache, httpSliceResource(`${nginx.url}/${crowdFile.name}`)), nginx, `/${crowdFile.name}`, { bytes: crowdBytes });
    console.log(
      `${crowd.readers} concurrent readers of ${(crowdBytes / MiB).toFixed(0)} MiB uncached: ${crowd.upstreamRequests} upstream requests for ${crowd.slices} slices, ` +
        `at most ${crowd.maxPerSlice} per slice (target 1), ${crowd.seconds.toFixed(2)} s`,
    );
    console.log(`cache: ${JSON.stringify(cache.stats())}`);
  } finally {
    await cache?.close();
    await nginx?.stop();
    await rm(root, { recursive: true, force: true });
    await rm(cacheDir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
