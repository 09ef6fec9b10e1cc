/**
 * Media proxy figures (issue 12), the parts that do not need the proxy routes: a 1 GiB file
 * served by Debian's nginx, read in 2 MiB ranges one after the other (a player seeking
 * forward), and 16 concurrent readers of one uncached file with the upstream requests per
 * slice counted from nginx's access log.
 *
 * Run alone (`node dist/bench/media-proxy.js`, or through infra/bench.sh) it prints nginx's
 * direct throughput and the slice cache's on a miss and on a hit, each on a fresh cache:
 *   - driven directly through `SliceCache.serve` with the test node:http upstream fetch
 *     (test/fixtures/slice-upstream.ts), readahead off and on, side by side in one run (the
 *     machine's load moves figures by a factor of two between runs): the cache's own cost;
 *   - through an HTTP hop (`cacheHttpServer`, a node:http server in this process answering
 *     from `serve` the way the proxy route does), readahead on: closer to what the proxy adds,
 *     pessimistic since the client shares this process's one thread.
 * The exported functions take a `RangeReader`, so the same figures can be taken through the
 * proxy's URL: `sequentialThroughput(httpRangeReader(proxyUrl), size)`.
 *
 * Options through the environment: BENCH_MEDIA_BYTES (file size, default 1 GiB),
 * BENCH_MEDIA_CONCURRENT_BYTES (bytes each of the 16 readers reads, default 64 MiB),
 * BENCH_MEDIA_CACHE_DIR (parent of the cache directories, default the OS temporary directory;
 * point it at a tmpfs to take the disk out of the figures), BENCH_MEDIA_UPSTREAM_DELAY_MS (a
 * delay before every upstream request, direct and through the cache alike, standing in for an
 * upstream that is not on loopback; default 0).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pipeline } from 'node:stream/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SliceCache, type SliceCacheOptions } from '../media/cache/slice-cache.js';
import type { SliceResource } from '../media/cache/types.js';
import { writePieces } from '../media/cache/write-pieces.js';
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
    if (Buffer.isBuffer(answer.body)) {
      answer.release?.();
      return answer.body.length;
    }
    let received = 0;
    for await (const lease of answer.body.pieces) {
      received += lease.bytes.length;
      lease.release();
    }
    return received;
  };
}

/**
 * A node:http server answering every GET with `cache.serve` for `resource`, the way the proxy
 * route does (status, headers, body piped; a client that leaves aborts the read).
 */
export async function cacheHttpServer(cache: SliceCache, resource: SliceResource): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    const left = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) left.abort(new Error('the client left'));
    });
    const range = req.headers.range;
    cache.serve({ method: req.method === 'HEAD' ? 'HEAD' : 'GET', range }, resource, left.signal).then(
      async (answer) => {
        if (answer.kind === 'passthrough') {
          res.writeHead(answer.reply.status, answer.reply.headers as Record<string, string>);
          await pipeline(answer.reply.body, res);
          return;
        }
        if (answer.release) res.once('close', answer.release);
        res.writeHead(answer.status, answer.headers);
        if (answer.body === null || Buffer.isBuffer(answer.body)) res.end(answer.body ?? undefined);
        else await writePieces(res, answer.body);
      },
      (err: unknown) => {
        res.writeHead(502).end(String(err));
      },
    ).catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
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

/**
 * nginx as a slice-caching reverse proxy of `origin` (its `slice` module in 2 MiB slices and
 * `proxy_cache` on disk under `cacheDir`): the same design as the media proxy, in C, with
 * sendfile. Read on the same machine as the media proxy, its miss and hit say how much of a
 * shortfall is the machine's (two processes and the reader sharing its cores) and how much is ours.
 */
export async function startNginxSliceProxy(origin: Nginx, cacheDir: string): Promise<Nginx> {
  return startNginx({
    root: cacheDir,
    httpConfig: `
  proxy_cache_path ${cacheDir} levels=1:2 keys_zone=slices:10m max_size=64g inactive=1h use_temp_path=off;
  upstream origin { server 127.0.0.1:${origin.port}; keepalive 16; }`,
    serverConfig: `
    location / {
      slice 2m;
      proxy_cache slices;
      proxy_cache_key $uri$slice_range;
      proxy_cache_valid 200 206 1h;
      proxy_set_header Range $slice_range;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_pass http://origin;
    }`,
  });
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

interface CacheRun {
  name: string;
  via: 'serve' | 'http';
  options: Partial<SliceCacheOptions>;
}

const RUNS: CacheRun[] = [
  { name: 'serve, readahead off', via: 'serve', options: { readahead: { depth: 0 } } },
  { name: 'serve, readahead on ', via: 'serve', options: {} },
  { name: 'http,  readahead on ', via: 'http', options: {} },
];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `read`, each range asked for `delayMs` later (an upstream further away than loopback). */
export function delayedReader(read: RangeReader, delayMs: number): RangeReader {
  return delayMs > 0 ? async (start, end) => sleep(delayMs).then(() => read(start, end)) : read;
}

function delayedResource(resource: SliceResource, delayMs: number): SliceResource {
  if (delayMs <= 0) return resource;
  return { identity: resource.identity, fetch: async (range, validators, signal) => sleep(delayMs).then(() => resource.fetch(range, validators, signal)) };
}

/** A miss then a hit reading the whole file in 2 MiB ranges, on a fresh cache. */
async function missThenHit(run: CacheRun, url: string, size: number, parent: string, delayMs: number): Promise<{ miss: Throughput; hit: Throughput; stats: string }> {
  const dir = await mkdtemp(join(parent, 'svc-bench-slices-'));
  const cache = await SliceCache.open({ dir, maxBytes: size + 8 * RANGE_BYTES, logger: createLogger({ level: 'warn', destination: 'stderr' }), ...run.options });
  const resource = delayedResource(httpSliceResource(url), delayMs);
  const server = run.via === 'http' ? await cacheHttpServer(cache, resource) : undefined;
  try {
    const reader = server ? httpRangeReader(server.url) : cacheRangeReader(cache, resource);
    const miss = await sequentialThroughput(reader, size);
    await cache.settled(); // every slice on disk: the hit run reads files, not the bytes still being written
    const hit = await sequentialThroughput(reader, size);
    return { miss, hit, stats: JSON.stringify(cache.stats()) };
  } finally {
    await server?.close();
    await cache.close();
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const size = Number(process.env.BENCH_MEDIA_BYTES ?? GiB);
  const crowdBytes = Math.min(size, Number(process.env.BENCH_MEDIA_CONCURRENT_BYTES ?? 64 * MiB));
  const parent = process.env.BENCH_MEDIA_CACHE_DIR ?? tmpdir();
  const delayMs = Number(process.env.BENCH_MEDIA_UPSTREAM_DELAY_MS ?? 0);
  const root = await mkdtemp(join(tmpdir(), 'svc-bench-media-'));
  const cacheDir = await mkdtemp(join(parent, 'svc-bench-slices-'));
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
    const direct = await sequentialThroughput(delayedReader(httpRangeReader(url), delayMs), size);
    console.log(`sequential reads in 2 MiB ranges of a ${(size / MiB).toFixed(0)} MiB file (ratios to nginx direct; proxy targets: miss >= 0.6, hit >= 0.9)${delayMs > 0 ? `, upstream ${delayMs} ms away` : ''}`);
    console.log(`  nginx direct (node:http client)        ${fmt(direct)}`);
    for (const run of RUNS) {
      const { miss, hit, stats } = await missThenHit(run, url, size, parent, delayMs);
      console.log(`  ${run.name}  miss  ${fmt(miss)}  ratio ${(miss.mbPerSecond / direct.mbPerSecond).toFixed(2)}`);
      console.log(`  ${run.name}  hit   ${fmt(hit)}  ratio ${(hit.mbPerSecond / direct.mbPerSecond).toFixed(2)}`);
      console.log(`    cache: ${stats}`);
    }

    cache = await SliceCache.open({ dir: cacheDir, maxBytes: 2 * crowdBytes + 8 * RANGE_BYTES, logger: createLogger({ level: 'warn', destination: 'stderr' }) });
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
