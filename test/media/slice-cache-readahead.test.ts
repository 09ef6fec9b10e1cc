/**
 * Readahead for sequential readers: a reader reading a file slice by slice has the next slices
 * fetched while it reads, once each; a readahead nobody claims (its reader left, or nobody
 * came in time) is aborted upstream and leaves nothing on disk; 16 concurrent sequential
 * readers still cost one upstream request per slice.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import type { SliceCache } from '../../media/cache/slice-cache.js';
import type { SliceResource } from '../../media/cache/types.js';
import { eventually, withDeadline } from '../fixtures/deadline.js';
import { startRangeUpstream } from '../fixtures/range-upstream.js';
import { httpSliceResource, readAll } from '../fixtures/slice-upstream.js';
import { cacheFiles, openCache, randomFile, read, servedFiles, SLICE, upstreamRequests } from './slice-cache-bed.js';

const files = servedFiles(test);

const sliceRange = (i: number): string => `bytes=${i * SLICE}-${(i + 1) * SLICE - 1}`;

/**
 * Reads slice `i` of the resource in one request and checks its bytes. Its signal is aborted
 * once the body was read, as a server that aborts on every response 'close' does: that is not
 * a client leaving.
 */
async function readSlice(cache: SliceCache, resource: SliceResource, content: Buffer, i: number): Promise<boolean> {
  const client = new AbortController();
  const answer = await read(cache, resource, sliceRange(i), 'GET', client.signal);
  client.abort();
  return answer.status === 206 && answer.body.equals(content.subarray(i * SLICE, (i + 1) * SLICE));
}

test('a sequential reader has the next slices fetched ahead, each once', async (t) => {
  const file = await randomFile(files.root, 'seq.bin', 4 * SLICE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/seq.bin`);
  t.true(await readSlice(cache, resource, file, 0));
  t.is(cache.stats().readaheads, 0, 'one slice read says nothing about what comes next');
  // Slice 1 after slice 0, read to its end: slices 2 and 3 are fetched ahead (depth 2).
  t.true(await readSlice(cache, resource, file, 1));
  t.like(cache.stats(), { readaheads: 2, entries: 4 });
  t.true(await readSlice(cache, resource, file, 2));
  t.true(await readSlice(cache, resource, file, 3));
  const ranges = (await upstreamRequests(files.nginx, '/seq.bin')).map((r) => r.range);
  t.deepEqual([...ranges].sort(), [0, 1, 2, 3].map(sliceRange).sort());
  t.like(cache.stats(), { readaheads: 2, hits: 2, misses: 2, bytesFromUpstream: 4 * SLICE });
  await cache.close();
});

test('reads that are not sequential, or stop short of a slice end, fetch nothing ahead', async (t) => {
  const file = await randomFile(files.root, 'jumps.bin', 6 * SLICE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/jumps.bin`);
  for (const i of [0, 2, 4]) t.true(await readSlice(cache, resource, file, i));
  t.true((await read(cache, resource, `bytes=${3 * SLICE}-${3 * SLICE + 99}`)).body.equals(file.subarray(3 * SLICE, 3 * SLICE + 100)));
  t.is(cache.stats().readaheads, 0);
  t.is((await upstreamRequests(files.nginx, '/jumps.bin')).length, 4);
  await cache.close();
});

test('a readahead nobody claims in time is aborted upstream and leaves no slice', async (t) => {
  const content = randomBytes(4 * SLICE);
  const upstream = await startRangeUpstream(content, { holdFrom: 2 * SLICE });
  const dir = await files.cacheDir();
  const cache = await openCache(dir, { readahead: { idleMs: 200 } });
  const resource = httpSliceResource(upstream.url);
  try {
    t.true(await readSlice(cache, resource, content, 0));
    const reading = readSlice(cache, resource, content, 1);
    const ahead = await Promise.all([upstream.arrived(sliceRange(2)), upstream.arrived(sliceRange(3))]);
    t.true(await reading);
    for (const request of ahead) t.is(await withDeadline(request.outcome, 10_000, 'the readahead to be aborted'), 'aborted');
    await cache.settled();
    const files = await cacheFiles(dir);
    t.is(files.filter((f) => f.name.endsWith('.slice')).length, 2);
    t.true(files.filter((f) => f.name.endsWith('.slice')).every((f) => f.size === SLICE));
    t.false(files.some((f) => f.name.startsWith('.tmp-')));
    t.like(cache.stats(), { readaheads: 2, entries: 2, bytesFromUpstream: 2 * SLICE });

    // Asked for now, slice 2 is fetched afresh and whole.
    upstream.holdFrom = Infinity;
    t.true(await readSlice(cache, resource, content, 2));
    t.is(upstream.requests.filter((r) => r.range === sliceRange(2)).length, 2);
  } finally {
    upstream.release();
    await cache.close();
    await upstream.stop();
  }
});

test('when the last reader leaves before its answer ends, its readahead is aborted', async (t) => {
  const content = randomBytes(4 * SLICE);
  const upstream = await startRangeUpstream(content, { holdFrom: 2 * SLICE });
  const dir = await files.cacheDir();
  const cache = await openCache(dir);
  const resource = httpSliceResource(upstream.url);
  try {
    t.true(await readSlice(cache, resource, content, 0));
    const client = new AbortController();
    // Slices 1 and 2 in one answer, streamed slice by slice (a player's open-ended range).
    const answer = await cache.serve({ method: 'GET', range: `bytes=${SLICE}-${3 * SLICE - 1}` }, resource, client.signal);
    const body = answer.kind === 'served' ? answer.body : null;
    if (!body || Buffer.isBuffer(body)) throw new Error(`expected a body in pieces, got ${answer.kind}`);
    const first = await body.pieces.next();
    t.true(!first.done && first.value.bytes.equals(content.subarray(SLICE, 2 * SLICE)));
    const ahead = await Promise.all([upstream.arrived(sliceRange(2)), upstream.arrived(sliceRange(3))]);
    // The player seeks elsewhere: the client leaves after slice 1, and its writer stops.
    client.abort();
    await body.pieces.return(undefined);
    for (const request of ahead) t.is(await withDeadline(request.outcome, 10_000, 'the readahead to be aborted'), 'aborted');
    await cache.settled();
    await eventually(async () => !(await cacheFiles(dir)).some((f) => f.name.startsWith('.tmp-')), 10_000, 'no temporary file');
    t.like(cache.stats(), { readaheads: 2, entries: 2 });
  } finally {
    upstream.release();
    await cache.close();
    await upstream.stop();
  }
});

test('a client signal aborted after the whole answer was read leaves the readahead running', async (t) => {
  const content = randomBytes(4 * SLICE);
  const upstream = await startRangeUpstream(content, { holdFrom: 2 * SLICE });
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(upstream.url);
  try {
    t.true(await readSlice(cache, resource, content, 0));
    const client = new AbortController();
    const answer = await cache.serve({ method: 'GET', range: sliceRange(1) }, resource, client.signal);
    t.true((await readAll(answer.kind === 'served' ? answer.body : null)).equals(content.subarray(SLICE, 2 * SLICE)));
    const ahead = await Promise.all([upstream.arrived(sliceRange(2)), upstream.arrived(sliceRange(3))]);
    // A server aborting its request signal on every response 'close', finished or not.
    client.abort();
    upstream.release();
    for (const request of ahead) t.is(await withDeadline(request.outcome, 10_000, 'the readahead to finish'), 'finished');
    await cache.settled();
    t.like(cache.stats(), { readaheads: 2, entries: 4 });
    t.true(await readSlice(cache, resource, content, 2));
    t.is(upstream.requests.length, 4);
  } finally {
    upstream.release();
    await cache.close();
    await upstream.stop();
  }
});

test('16 concurrent sequential readers with readahead cause one upstream request per slice', async (t) => {
  const slices = 8;
  const file = await randomFile(files.root, 'crowd-seq.bin', slices * SLICE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/crowd-seq.bin`);
  const reader = async (): Promise<boolean> => {
    let ok = true;
    for (let i = 0; i < slices; i++) {
      const answer = await cache.serve({ method: 'GET', range: sliceRange(i) }, resource, new AbortController().signal);
      ok &&= (await readAll(answer.kind === 'served' ? answer.body : null)).equals(file.subarray(i * SLICE, (i + 1) * SLICE));
    }
    return ok;
  };
  const results = await Promise.all(Array.from({ length: 16 }, reader));
  t.true(results.every(Boolean));
  await cache.settled();
  const ranges = (await upstreamRequests(files.nginx, '/crowd-seq.bin')).map((r) => r.range);
  t.deepEqual([...ranges].sort(), Array.from({ length: slices }, (_, i) => sliceRange(i)).sort());
  t.like(cache.stats(), { entries: slices, bytesFromUpstream: slices * SLICE });
  t.true(cache.stats().readaheads >= 1);
  await cache.close();
});
