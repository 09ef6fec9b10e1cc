/**
 * The slice cache when the upstream misbehaves or is shared: 16 readers of one uncached file
 * (nginx), a node upstream that sends fewer bytes than it promised, a slow node upstream whose
 * only reader disconnects (or one of two), a 200-only nginx, and an upstream error status.
 */
import { randomBytes } from 'node:crypto';
import test from 'ava';
import { AppError } from '../../errors/app-error.js';
import { eventually, withDeadline } from '../fixtures/deadline.js';
import { startNginx } from '../fixtures/nginx.js';
import { startRangeUpstream } from '../fixtures/range-upstream.js';
import { httpSliceResource, readAll } from '../fixtures/slice-upstream.js';
import { cacheFiles, openCache, randomFile, read, servedFiles, SLICE, upstreamRequests } from './slice-cache-bed.js';

const files = servedFiles(test);

const SIZE = 2 * SLICE + SLICE / 2;

/** The name of what a promise rejected with (an abort rejects with a DOMException, not an Error). */
async function abortedWith(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'resolved',
    (err: unknown) => (err as { name?: string }).name ?? String(err),
  );
}

test('16 concurrent readers of one uncached file cause one upstream request per slice', async (t) => {
  const file = await randomFile(files.root, 'crowd.bin', SIZE);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(`${files.nginx.url}/crowd.bin`);
  const bodies = await Promise.all(Array.from({ length: 16 }, () => read(cache, resource)));
  for (const body of bodies) t.true(body.body.equals(file));
  const ranges = (await upstreamRequests(files.nginx, '/crowd.bin')).map((r) => r.range).sort();
  t.deepEqual(ranges, [0, 1, 2].map((i) => `bytes=${i * SLICE}-${(i + 1) * SLICE - 1}`).sort());
  t.like(cache.stats(), { entries: 3, bytesFromUpstream: SIZE });
  await cache.close();
});

test('a short upstream read leaves no slice and fails the reader; the next read fetches again', async (t) => {
  const content = randomBytes(SIZE);
  const upstream = await startRangeUpstream(content);
  const dir = await files.cacheDir();
  const cache = await openCache(dir);
  const resource = httpSliceResource(upstream.url);
  try {
    upstream.mode = 'short';
    const err = await t.throwsAsync(read(cache, resource, 'bytes=0-99'), { instanceOf: AppError });
    t.is(err?.code, 'bad_gateway');
    t.regex(err?.message ?? '', /bytes 0-2097151/);
    t.deepEqual(await cacheFiles(dir), []);

    upstream.mode = 'ok';
    t.true((await read(cache, resource, 'bytes=0-99')).body.equals(content.subarray(0, 100)));

    // A slice that fails in the middle of an answer already started ends that answer with an error.
    upstream.mode = 'short';
    const answer = await cache.serve({ method: 'GET', range: undefined }, resource, new AbortController().signal);
    t.is(answer.kind, 'served');
    const body = answer.kind === 'served' ? answer.body : null;
    const midway = await t.throwsAsync(readAll(body));
    t.is((midway as AppError).code, 'bad_gateway');
    // Slice 0, written after the first good read; nothing of slice 1, not even a temporary file.
    await eventually(async () => (await cacheFiles(dir)).filter((f) => f.name.endsWith('.slice')).length === 1, 10_000, 'slice 0 on disk');
    t.false((await cacheFiles(dir)).some((f) => f.name.startsWith('.tmp-')));

    upstream.mode = 'ok';
    t.true((await read(cache, resource)).body.equals(content));
    t.is(upstream.requests.length, 1 + 1 + 1 + 2);
  } finally {
    await cache.close();
    await upstream.stop();
  }
});

test('the only reader disconnecting aborts the upstream read and leaves nothing', async (t) => {
  const upstream = await startRangeUpstream(randomBytes(SIZE));
  const dir = await files.cacheDir();
  const cache = await openCache(dir);
  try {
    upstream.mode = 'slow';
    const client = new AbortController();
    const serving = cache.serve({ method: 'GET', range: 'bytes=0-99' }, httpSliceResource(upstream.url), client.signal);
    await upstream.arrived(1);
    client.abort();
    t.is(await abortedWith(serving), 'AbortError');
    t.is(await withDeadline(upstream.requests[0]!.outcome, 10_000, 'the upstream response to close'), 'aborted');
    // The aborted fetch removes its temporary file as it unwinds, just after the reader is told.
    await eventually(async () => (await cacheFiles(dir)).length === 0, 10_000, 'an empty cache directory');
    t.like(cache.stats(), { entries: 0, bytesFromUpstream: 0 });
  } finally {
    upstream.release();
    await cache.close();
    await upstream.stop();
  }
});

test('with a second reader waiting, a disconnect leaves the slice fetch running to the end', async (t) => {
  const content = randomBytes(SIZE);
  const upstream = await startRangeUpstream(content);
  const cache = await openCache(await files.cacheDir());
  const resource = httpSliceResource(upstream.url);
  try {
    upstream.mode = 'slow';
    const leaving = new AbortController();
    const first = cache.serve({ method: 'GET', range: 'bytes=0-99' }, resource, leaving.signal);
    await upstream.arrived(1);
    const second = read(cache, resource, `bytes=100-${SLICE - 1}`);
    leaving.abort();
    t.is(await abortedWith(first), 'AbortError');
    upstream.release();
    t.true((await second).body.equals(content.subarray(100, SLICE)));
    t.is(await withDeadline(upstream.requests[0]!.outcome, 10_000, 'the upstream response to end'), 'finished');
    t.is(upstream.requests.length, 1);
    t.like(cache.stats(), { entries: 1, bytesFromUpstream: SLICE });
  } finally {
    upstream.release();
    await cache.close();
    await upstream.stop();
  }
});

test('an upstream that answers 200 to Range is passed through and nothing is written', async (t) => {
  const file = await randomFile(files.root, 'plain.bin', SIZE);
  const plain = await startNginx({ root: files.root, ranges: false });
  const dir = await files.cacheDir();
  const cache = await openCache(dir);
  try {
    const resource = httpSliceResource(`${plain.url}/plain.bin`);
    for (const range of ['bytes=0-99', undefined]) {
      const answer = await read(cache, resource, range);
      t.is(answer.kind, 'passthrough');
      t.is(answer.status, 200);
      t.true(answer.body.equals(file));
    }
    t.deepEqual(await cacheFiles(dir), []);
    t.like(cache.stats(), { entries: 0, sizeBytes: 0 });
  } finally {
    await cache.close();
    await plain.stop();
  }
});

test('an upstream error status is a bad_gateway naming it', async (t) => {
  const cache = await openCache(await files.cacheDir());
  const err = await t.throwsAsync(read(cache, httpSliceResource(`${files.nginx.url}/no-such-file.bin`), 'bytes=0-1'), { instanceOf: AppError });
  t.is(err?.code, 'bad_gateway');
  t.regex(err?.message ?? '', /answered 404/);
  await cache.close();
});
