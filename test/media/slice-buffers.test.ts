/**
 * Pooled slice buffers (slice-buffers.ts) and the holds that keep them from being reused too
 * early: a buffer comes back only when its last holder releases it, a single-flight result is
 * shared with every waiter before the flight lets go of it, and answers of the slice cache
 * released as they are sent (as the proxy route does) never see their bytes overwritten, on a
 * miss, from the warm slices read ahead, or from disk.
 */
import test from 'ava';
import { SliceBuffers } from '../../media/cache/slice-buffers.js';
import { Flights } from '../../media/cache/flights.js';
import { WarmSlices } from '../../media/cache/warm-slices.js';
import type { SliceCache } from '../../media/cache/slice-cache.js';
import type { SliceResource } from '../../media/cache/types.js';
import { httpSliceResource } from '../fixtures/slice-upstream.js';
import { openCache, randomFile, servedFiles, SLICE } from './slice-cache-bed.js';

const files = servedFiles(test);

test('a pooled buffer is reused only after its last holder released it', (t) => {
  const pool = new SliceBuffers(1024, 4);
  const first = pool.take(1000);
  t.is(first.bytes.length, 1000);
  first.retain();
  first.release();
  const second = pool.take(1024);
  t.not(second.bytes.buffer, first.bytes.buffer, 'one holder is left: the memory is not free');
  first.release();
  const third = pool.take(10);
  t.is(third.bytes.buffer, first.bytes.buffer, 'the last release gave the memory back');
  t.throws(() => pool.take(1025), { instanceOf: RangeError });
});

test('the pool keeps at most maxFree idle buffers', (t) => {
  const pool = new SliceBuffers(64, 1);
  const a = pool.take(64);
  const b = pool.take(64);
  a.release();
  b.release();
  const again = [pool.take(64), pool.take(64)];
  t.is(again.filter((lease) => lease.bytes.buffer === a.bytes.buffer || lease.bytes.buffer === b.bytes.buffer).length, 1);
});

test('a flight shares its result with every waiter before dropping its own hold', async (t) => {
  const events: string[] = [];
  const flights = new Flights<string>({ share: (v) => events.push(`share ${v}`), drop: (v) => events.push(`drop ${v}`) });
  let finish = (_: string): void => undefined;
  const work = (): Promise<string> => new Promise((resolve) => (finish = resolve));
  const waiters = [1, 2, 3].map(() => flights.join('slice', work, new AbortController().signal));
  const leaving = new AbortController();
  const gone = flights.join('slice', work, leaving.signal);
  leaving.abort(new Error('the client left'));
  await t.throwsAsync(gone, { message: 'the client left' });
  await new Promise((resolve) => setImmediate(resolve));
  finish('v');
  t.deepEqual(await Promise.all(waiters), ['v', 'v', 'v']);
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(events, ['share v', 'share v', 'share v', 'drop v'], 'the waiter who left gets no share');
});

test('warm slices are handed over once and release what they drop', (t) => {
  const pool = new SliceBuffers(16, 8);
  const warm = new WarmSlices(32, 60_000);
  const leases = [pool.take(16), pool.take(16), pool.take(16)];
  leases.forEach((lease, i) => warm.put('k', i, { gen: 'g', lease }));
  t.false(warm.has('k', 0), 'the oldest slice was pushed out to stay within 32 bytes');
  t.is(pool.take(16).bytes.buffer, leases[0]!.bytes.buffer, 'and its buffer went back to the pool');
  const taken = warm.take('k', 1);
  t.is(taken?.lease, leases[1]);
  t.false(warm.has('k', 1), 'a taken slice is the taker\'s');
  warm.drop('k');
  t.false(warm.has('k', 2));
  t.is(pool.take(16).bytes.buffer, leases[2]!.bytes.buffer);
});

/** Reads slice i, copies its bytes, then releases the answer as the proxy route does once the response closed. */
async function readReleased(cache: SliceCache, resource: SliceResource, i: number): Promise<Buffer> {
  const answer = await cache.serve({ method: 'GET', range: `bytes=${i * SLICE}-${(i + 1) * SLICE - 1}` }, resource, new AbortController().signal);
  if (answer.kind !== 'served' || !Buffer.isBuffer(answer.body)) throw new Error('expected a one-slice answer in a buffer');
  const copy = Buffer.from(answer.body);
  answer.release?.();
  return copy;
}

test('answers released as they are sent are byte-exact on a miss, from readahead and from disk, and a held one keeps its bytes', async (t) => {
  const slices = 8;
  const file = await randomFile(files.root, 'pooled.bin', slices * SLICE);
  const cache = await openCache(await files.cacheDir(), { maxWarmBytes: 2 * SLICE });
  const resource = httpSliceResource(`${files.nginx.url}/pooled.bin`);
  const expected = (i: number): Buffer => file.subarray(i * SLICE, (i + 1) * SLICE);
  try {
    const held = await cache.serve({ method: 'GET', range: `bytes=0-${SLICE - 1}` }, resource, new AbortController().signal);
    if (held.kind !== 'served' || !Buffer.isBuffer(held.body)) throw new Error('expected a one-slice answer in a buffer');
    // Two sequential passes with two readers each: misses and readahead, then disk and warm slices.
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 1; i < slices; i++) {
        const [a, b] = await Promise.all([readReleased(cache, resource, i), readReleased(cache, resource, i)]);
        t.true(a.equals(expected(i)) && b.equals(expected(i)), `pass ${pass}, slice ${i}`);
      }
      await cache.settled();
    }
    t.true(held.body.equals(expected(0)), 'the unreleased answer was not overwritten by the reads after it');
    held.release?.();
    t.true(cache.stats().readaheads > 0);
  } finally {
    await cache.close();
  }
});
