/**
 * The seam between the media proxy and the slice cache (media/cache/types.ts): the proxy hands
 * the cache the resolved item's stable identity and a `fetch` that reads a slice upstream with
 * the provider's headers, re-resolving an expired link inside `fetch` (so a cache filling slices
 * never sees a 403), and an upstream that answers 200 comes back as a passthrough. Real upstreams: nginx and the fake Alist.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import type { MediaItem } from '../../contracts/room/model.js';
import { SliceCache } from '../../media/cache/slice-cache.js';
import type { SliceCacheApi, SliceResource } from '../../media/cache/types.js';
import { createLogger } from '../../observability/logger.js';
import { MediaGrants } from '../../media/media-grant.js';
import type { MediaProvider } from '../../media/provider.js';
import { upstreamReadKey } from '../../media/read-key.js';
import { AlistProvider } from '../../media/providers/alist.js';
import { directProvider } from '../../media/providers/direct.js';
import { AddressPolicy } from '../../media/proxy/address-policy.js';
import { MediaProxy } from '../../media/proxy/media-proxy.js';
import { Resolutions } from '../../media/proxy/resolutions.js';
import { UpstreamClient } from '../../media/proxy/upstream-client.js';
import { startFakeAlist, type FakeAlist } from '../fixtures/fake-alist.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { readAll } from '../fixtures/slice-upstream.js';
import { randomFile } from './media-bed.js';

const SIZE = 1024 * 1024 + 5;
let bytes: Buffer;
let nginx: Nginx;
let whole: Nginx;
let alist: FakeAlist;
const client = new UpstreamClient({ policy: new AddressPolicy(['127.0.0.0/8']), headersTimeoutMs: 5000, idleTimeoutMs: 5000, maxRedirects: 5 });
const resources: SliceResource[] = [];

let cache: SliceCache;
/** The real slice cache, noting the resources the proxy hands it. */
const recording: SliceCacheApi = {
  serve(read, resource, signal) {
    resources.push(resource);
    return cache.serve(read, resource, signal);
  },
  stats: () => cache.stats(),
};

test.before(async () => {
  const file = await randomFile('film.mp4', SIZE);
  bytes = file.bytes;
  await mkdir(join(file.dir, 'movies'));
  await writeFile(join(file.dir, 'movies', 'film.mp4'), bytes);
  nginx = await startNginx({ root: file.dir });
  whole = await startNginx({ root: file.dir, ranges: false });
  alist = await startFakeAlist({ root: file.dir, linkTtlMs: 1000 });
  // Revalidating on every read sends each one upstream, so the Alist links keep expiring under it.
  cache = await SliceCache.open({ dir: await mkdtemp(join(tmpdir(), 'svc-seam-slices-')), maxBytes: 64 * 1024 * 1024, revalidateAfterMs: 0, logger: createLogger({ level: 'fatal', destination: 'stderr' }) });
});
test.after.always(async () => {
  client.close();
  await Promise.allSettled([nginx?.stop(), whole?.stop(), alist?.close(), cache?.close()]);
});

function item(url: string, provider: string, headers: Record<string, string> = {}): MediaItem {
  return { id: randomBytes(4).toString('hex'), title: 't', url, provider, headers, subtitles: [], live: false, proxy: true, seekable: 'unknown', reach: null, addedBy: 'u', addedAt: 0, folderId: null };
}

function proxyFor(): MediaProxy {
  return new MediaProxy({ client, resolutions: new Resolutions(), grants: new MediaGrants(randomBytes(32)), cache: recording, playlistLimitBytes: 1 << 20 });
}

const target = (media: MediaItem, provider: MediaProvider) => ({ grant: { roomId: 'r', userId: 'u', sessionId: 's', mediaId: media.id, resource: '', expiresAt: Date.now() + 60_000 }, item: media, provider });

test.serial('file reads go through the cache keyed by the item identity and its headers, and a slice fetch with the provider headers', async (t) => {
  const media = item(`${nginx.url}/film.mp4`, 'direct', { Referer: 'https://r.example/' });
  const answer = await proxyFor().serve(target(media, directProvider), { method: 'GET', range: 'bytes=100-2099', signal: AbortSignal.timeout(10_000) });
  t.is(answer.status, 206);
  t.is(answer.headers['content-range'], `bytes 100-2099/${SIZE}`);
  t.is(answer.headers['x-content-type-options'], 'nosniff');
  t.true((await readAll(answer.body)).equals(bytes.subarray(100, 2100)));
  // Read with a header, so keyed by it too (media/read-key.ts): the same URL without it is another resource.
  t.is(resources.at(-1)?.identity, upstreamReadKey({ identity: `url:${nginx.url}/film.mp4`, headers: { Referer: 'https://r.example/' } }));
  t.true(resources.at(-1)?.identity.startsWith(`url:${nginx.url}/film.mp4\0`));
  // The cache asks for the whole 2 MiB slice holding the range (the file is shorter).
  t.is((await nginx.requests()).at(-1)?.range, 'bytes=0-2097151');
});

test.serial('an upstream that ignores Range comes back from the cache as a passthrough 200', async (t) => {
  const media = item(`${whole.url}/film.mp4`, 'direct');
  const answer = await proxyFor().serve(target(media, directProvider), { method: 'GET', range: 'bytes=0-9', signal: AbortSignal.timeout(10_000) });
  t.is(answer.status, 200);
  t.true((await readAll(answer.body)).equals(bytes));
});

test.serial('fetch re-resolves an expired link itself; the identity stays the same across resolutions', async (t) => {
  const media = item(`${alist.url}/d/movies/film.mp4`, 'alist');
  const provider = new AlistProvider(client);
  const proxy = proxyFor();
  const before = resources.length;
  const deadline = Date.now() + 30_000;
  while (alist.issued() < 3 && Date.now() < deadline) {
    const start = randomInt(0, SIZE - 1000);
    const answer = await proxy.serve(target(media, provider), { method: 'GET', range: `bytes=${start}-${start + 999}`, signal: AbortSignal.timeout(10_000) });
    t.is(answer.status, 206);
    t.true((await readAll(answer.body)).equals(bytes.subarray(start, start + 1000)));
  }
  t.true(alist.issued() >= 3);
  t.true(alist.expiredRefusals() >= 1);
  t.deepEqual([...new Set(resources.slice(before).map((resource) => resource.identity))], [`alist:${alist.url}/movies/film.mp4`]);
});
