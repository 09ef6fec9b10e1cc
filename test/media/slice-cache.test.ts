/**
 * The slice cache against a real Range-capable upstream (Debian's nginx): byte-exact answers
 * for every Range shape, hits that cost no upstream request, LRU eviction within the size,
 * revalidation with ETag/Last-Modified, and the index surviving a restart.
 */
import { utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { httpSliceResource } from '../fixtures/slice-upstream.js';
import { cacheFiles, MiB, openCache, randomFile, read, servedFiles, SLICE, upstreamRequests } from './slice-cache-bed.js';

const files = servedFiles(test);

/** 2.5 slices: the last slice is shorter than the others. */
const SIZE = 2 * SLICE + SLICE / 2 + 777;

test('every Range shape is answered byte for byte, cold and warm, with the upstream headers', async (t) => {
  const file = await randomFile(files.root, 'shapes.mp4', SIZE);
  const url = `${files.nginx.url}/shapes.mp4`;
  const direct = await fetch(url, { method: 'HEAD' });
  const cases: Array<{ name: string; range: string | undefined; status: number; start: number; end: number }> = [
    { name: 'first byte', range: 'bytes=0-0', status: 206, start: 0, end: 0 },
    { name: 'last byte', range: `bytes=${SIZE - 1}-${SIZE - 1}`, status: 206, start: SIZE - 1, end: SIZE - 1 },
    { name: 'spanning three slices', range: `bytes=${SLICE - 100}-${2 * SLICE + 100}`, status: 206, start: SLICE - 100, end: 2 * SLICE + 100 },
    { name: 'open-ended', range: `bytes=${SLICE + 5}-`, status: 206, start: SLICE + 5, end: SIZE - 1 },
    { name: 'suffix', range: 'bytes=-1000', status: 206, start: SIZE - 1000, end: SIZE - 1 },
    { name: 'past the end clipped', range: `bytes=${SIZE - 10}-${SIZE + 5000}`, status: 206, start: SIZE - 10, end: SIZE - 1 },
    { name: 'two adjacent ranges merge', range: 'bytes=0-9,10-19', status: 206, start: 0, end: 19 },
    { name: 'two disjoint ranges: the whole body', range: 'bytes=0-9,100-109', status: 200, start: 0, end: SIZE - 1 },
    { name: 'no Range', range: undefined, status: 200, start: 0, end: SIZE - 1 },
  ];
  const warm = await openCache(await files.cacheDir());
  for (const temperature of ['cold', 'warm'] as const) {
    for (const c of cases) {
      const cache = temperature === 'cold' ? await openCache(await files.cacheDir()) : warm;
      const answer = await read(cache, httpSliceResource(url), c.range);
      const what = `${c.name} (${temperature})`;
      t.is(answer.status, c.status, what);
      t.true(answer.body.equals(file.subarray(c.start, c.end + 1)), what);
      t.is(answer.headers['content-length'], String(c.end - c.start + 1), what);
      t.is(answer.headers['content-range'], c.status === 206 ? `bytes ${c.start}-${c.end}/${SIZE}` : undefined, what);
      t.is(answer.headers['accept-ranges'], 'bytes', what);
      t.is(answer.headers['content-type'], 'video/mp4', what);
      t.is(answer.headers.etag, direct.headers.get('etag') ?? '', what);
      t.is(answer.headers['last-modified'], direct.headers.get('last-modified') ?? '', what);
      if (temperature === 'cold') await cache.close();
    }
  }
  await warm.close();
});

test('a range past the end is 416 with the size, cold and warm', async (t) => {
  await randomFile(files.root, 'past.bin', SIZE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/past.bin`);
  for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 3 * SLICE}-${SIZE + 3 * SLICE + 10}`, `bytes=${SIZE}-`]) {
    const answer = await read(cache, resource, range);
    t.is(answer.status, 416, range);
    t.is(answer.headers['content-range'], `bytes */${SIZE}`, range);
    t.is(answer.body.length, 0);
  }
  // Now the size is known: the answer needs no upstream request.
  await read(cache, resource, 'bytes=0-0');
  const before = (await upstreamRequests(files.nginx, '/past.bin')).length;
  t.is((await read(cache, resource, `bytes=${SIZE}-`)).status, 416);
  t.is((await upstreamRequests(files.nginx, '/past.bin')).length, before);
  await cache.close();
});

test('HEAD learns the size from one slice fetch and sends no body', async (t) => {
  await randomFile(files.root, 'head.bin', SIZE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/head.bin`);
  const whole = await read(cache, resource, undefined, 'HEAD');
  t.is(whole.status, 200);
  t.is(whole.headers['content-length'], String(SIZE));
  t.is(whole.body.length, 0);
  const ranged = await read(cache, resource, 'bytes=-10', 'HEAD');
  t.is(ranged.status, 206);
  t.is(ranged.headers['content-range'], `bytes ${SIZE - 10}-${SIZE - 1}/${SIZE}`);
  t.deepEqual((await upstreamRequests(files.nginx, '/head.bin')).map((r) => r.range), [`bytes=0-${SLICE - 1}`]);
  await cache.close();
});

test('a miss fetches the slice once; the same read again is a hit with no upstream request', async (t) => {
  const file = await randomFile(files.root, 'hit.bin', SIZE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/hit.bin`);
  const range = `bytes=${SLICE + 10}-${SLICE + 1009}`;
  const first = await read(cache, resource, range);
  t.true(first.body.equals(file.subarray(SLICE + 10, SLICE + 1010)));
  t.deepEqual((await upstreamRequests(files.nginx, '/hit.bin')).map((r) => [r.status, r.range]), [[206, `bytes=${SLICE}-${2 * SLICE - 1}`]]);

  const second = await read(cache, resource, range);
  t.true(second.body.equals(first.body));
  t.is((await upstreamRequests(files.nginx, '/hit.bin')).length, 1);
  t.like(cache.stats(), { hits: 1, misses: 1, bytesFromCache: 1000, bytesFromUpstream: SLICE, entries: 1, sizeBytes: SLICE });
  await cache.close();
});

test('reading more than fits evicts the least recently used slices and the disk stays within the size', async (t) => {
  const file = await randomFile(files.root, 'evict.bin', 5 * SLICE);
  const dir = await files.cacheDir();
  const maxBytes = 3 * SLICE;
  const cache = await openCache(dir, { maxBytes });
  const resource = httpSliceResource(`${files.nginx.url}/evict.bin`);
  const sliceRead = async (i: number): Promise<void> => {
    const answer = await read(cache, resource, `bytes=${i * SLICE}-${i * SLICE + 99}`);
    t.true(answer.body.equals(file.subarray(i * SLICE, i * SLICE + 100)), `slice ${i}`);
  };
  const fetchedSlices = async (): Promise<number[]> =>
    (await upstreamRequests(files.nginx, '/evict.bin')).map((r) => Number(/^bytes=(\d+)-/.exec(r.range ?? '')?.[1]) / SLICE);

  for (const i of [0, 1, 2, 0, 3]) await sliceRead(i);
  // Slice 0 was used after slice 1, so slice 1 is the one that made room for slice 3.
  t.deepEqual(await fetchedSlices(), [0, 1, 2, 3]);
  t.like(cache.stats(), { evictions: 1, entries: 3, sizeBytes: 3 * SLICE });
  await sliceRead(0);
  t.deepEqual(await fetchedSlices(), [0, 1, 2, 3]);
  await sliceRead(1);
  t.deepEqual(await fetchedSlices(), [0, 1, 2, 3, 1]);

  const whole = await read(cache, resource);
  t.true(whole.body.equals(file));
  t.true(cache.stats().sizeBytes <= maxBytes);
  const onDisk = async (): Promise<number> => (await cacheFiles(dir)).filter((f) => f.name.endsWith('.slice')).reduce((sum, f) => sum + f.size, 0);
  let bytes = await onDisk();
  for (let tries = 0; bytes > maxBytes && tries < 100; tries++) bytes = await new Promise((r) => setTimeout(r, 20)).then(onDisk);
  t.true(bytes <= maxBytes, `${bytes} bytes of slices on disk`);
  await cache.close();
});

test('stale metadata is revalidated: 304 keeps the slices, a replaced file is served anew', async (t) => {
  const path = join(files.root, 'reval.bin');
  const original = await randomFile(files.root, 'reval.bin', SIZE);
  const cache = await openCache(await files.cacheDir(), { revalidateAfterMs: 0 });
  const resource = httpSliceResource(`${files.nginx.url}/reval.bin`);
  t.true((await read(cache, resource)).body.equals(original));
  t.is((await upstreamRequests(files.nginx, '/reval.bin')).length, 3);

  const again = await read(cache, resource, 'bytes=100-199');
  t.true(again.body.equals(original.subarray(100, 200)));
  const afterUnchanged = await upstreamRequests(files.nginx, '/reval.bin');
  t.deepEqual(afterUnchanged.slice(3).map((r) => r.status), [304]);
  t.like(cache.stats(), { revalidations: 1, entries: 3 });

  const replaced = Buffer.from(original.map((b) => b ^ 0xff));
  await writeFile(path, replaced);
  // nginx's ETag is mtime and size: make sure the mtime moved whatever the clock granularity.
  const later = new Date(Date.now() + 10_000);
  await utimes(path, later, later);
  const changed = await read(cache, resource, `bytes=${SLICE - 5}-${SLICE + 4}`);
  t.true(changed.body.equals(replaced.subarray(SLICE - 5, SLICE + 5)));
  t.true((await read(cache, resource)).body.equals(replaced));
  t.is(cache.stats().revalidations >= 2, true);
  // Nothing of the old version is left: three slices of the new one.
  t.like(cache.stats(), { entries: 3, sizeBytes: SIZE });
  await cache.close();
});

test('the index survives a restart; its first use is revalidated', async (t) => {
  const file = await randomFile(files.root, 'restart.bin', SIZE);
  const dir = await files.cacheDir();
  const resource = httpSliceResource(`${files.nginx.url}/restart.bin`);
  const first = await openCache(dir);
  t.true((await read(first, resource)).body.equals(file));
  await first.close();

  const reopened = await openCache(dir);
  t.like(reopened.stats(), { entries: 3, sizeBytes: SIZE });
  t.true((await read(reopened, resource)).body.equals(file));
  t.deepEqual((await upstreamRequests(files.nginx, '/restart.bin')).slice(3).map((r) => r.status), [304]);
  t.like(reopened.stats(), { hits: 3, misses: 0, revalidations: 1 });
  await reopened.close();

  // A smaller size at the next open evicts down to it.
  const smaller = await openCache(dir, { maxBytes: SLICE });
  t.like(smaller.stats(), { entries: 1 });
  t.true(smaller.stats().sizeBytes <= SLICE);
  await smaller.close();
  t.pass();
});

test('a cache smaller than one slice is refused at open, naming the key', async (t) => {
  await t.throwsAsync(openCache(await files.cacheDir(), { maxBytes: MiB }), { message: /proxy_slice_cache\.size_mb/ });
});
