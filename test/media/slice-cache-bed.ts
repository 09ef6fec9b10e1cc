/**
 * What the slice cache tests share: files of random bytes in a temporary root served by
 * nginx, a cache in its own temporary directory, a read that collects the answer, and the
 * upstream requests nginx has logged once everything before now has been logged.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SliceCache, type SliceCacheOptions } from '../../media/cache/slice-cache.js';
import type { ClientRead, SliceResource } from '../../media/cache/types.js';
import { createLogger } from '../../observability/logger.js';
import { waitFor } from '../fixtures/deadline.js';
import type { TestFn } from 'ava';
import { startNginx, type Nginx, type UpstreamRequest } from '../fixtures/nginx.js';
import { readAll } from '../fixtures/slice-upstream.js';

export const MiB = 1024 * 1024;
export const SLICE = 2 * MiB;
export const logger = createLogger({ level: process.env.SVCTEST_LOG_LEVEL ?? 'fatal', destination: 'stderr' });

export async function tempDir(prefix: string): Promise<string> {
  return mkdtemp(join(tmpdir(), prefix));
}

/** Writes `size` random bytes to `<root>/<name>` and returns them. */
export async function randomFile(root: string, name: string, size: number): Promise<Buffer> {
  const bytes = randomBytes(size);
  await writeFile(join(root, name), bytes);
  return bytes;
}

export function openCache(dir: string, options: Partial<SliceCacheOptions> = {}): Promise<SliceCache> {
  return SliceCache.open({ dir, maxBytes: 64 * MiB, logger, ...options });
}

export interface Read {
  kind: 'served' | 'passthrough';
  status: number;
  headers: Record<string, string | undefined>;
  body: Buffer;
}

/**
 * One client read through the cache, its body read to the end, and then the slices it fetched
 * written (the cache serves a slice before writing it), so a test sees the cache's state.
 */
export async function read(
  cache: SliceCache,
  resource: SliceResource,
  range?: string,
  method: ClientRead['method'] = 'GET',
  signal: AbortSignal = new AbortController().signal,
): Promise<Read> {
  const answer = await cache.serve({ method, range }, resource, signal);
  if (answer.kind === 'passthrough') {
    return { kind: 'passthrough', status: answer.reply.status, headers: answer.reply.headers, body: await readAll(answer.reply.body) };
  }
  const body = await readAll(answer.body);
  await cache.settled();
  return { kind: 'served', status: answer.status, headers: answer.headers, body };
}

/**
 * The requests nginx served for `path`, complete up to now: nginx logs a request when it
 * finishes it, so a marker request sent after ours were answered shows up after theirs.
 */
export async function upstreamRequests(nginx: Nginx, path: string): Promise<UpstreamRequest[]> {
  const marker = `/__marker_${randomBytes(4).toString('hex')}`;
  await fetch(`${nginx.url}${marker}`).then((r) => r.arrayBuffer());
  const all = await waitFor('the marker request in the nginx access log', async () => {
    const requests = await nginx.requests();
    return requests.some((r) => r.path === marker) ? requests : undefined;
  }, 10_000, 20);
  return all.filter((r) => r.path === path);
}

/** Files under the cache directory with their sizes (slices, metadata, temporaries). */
export async function cacheFiles(dir: string): Promise<Array<{ name: string; size: number }>> {
  const names = await readdir(dir);
  return Promise.all(names.map(async (name) => ({ name, size: (await stat(join(dir, name))).size })));
}

export async function removeDir(dir: string | undefined): Promise<void> {
  if (dir) await rm(dir, { recursive: true, force: true });
}

export interface ServedFiles {
  /** The folder nginx serves; tests write their files into it. */
  readonly root: string;
  readonly nginx: Nginx;
  /** A fresh cache folder, removed after the file's tests. */
  cacheDir(): Promise<string>;
}

/** A served folder behind Debian's nginx for one test file, removed with its cache folders afterwards. */
export function servedFiles(test: TestFn): ServedFiles {
  const dirs: string[] = [];
  let root = '';
  let nginx: Nginx | undefined;
  test.before(async () => {
    root = await tempDir('svc-slice-root-');
    nginx = await startNginx({ root });
  });
  test.after.always(async () => {
    await nginx?.stop();
    await Promise.all([root, ...dirs].map(removeDir));
  });
  return {
    get root() {
      return root;
    },
    get nginx() {
      if (!nginx) throw new Error('nginx is not started yet (servedFiles starts it in test.before)');
      return nginx;
    },
    async cacheDir() {
      const dir = await tempDir('svc-slice-cache-');
      dirs.push(dir);
      return dir;
    },
  };
}
