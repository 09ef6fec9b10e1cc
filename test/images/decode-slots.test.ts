/**
 * The process's picture decode slots (images/decode-slots.ts): at most `size` decodes run at
 * once, the next wait their turn in order, and past the queue or the wait a decode is refused
 * `resource_exhausted` with a Retry-After rather than piling onto the shared thread pool.
 */
import test from 'ava';
import { isAppError } from '../../errors/app-error.js';
import { DecodeSlots } from '../../images/decode-slots.js';

/** A decode that ends when `finish` is called, recording when it started. */
function held(started: string[], name: string): { work: () => Promise<string>; finish: () => void } {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      started.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

test('decodes past the slots wait in order; past the queue they are refused resource_exhausted with a Retry-After', async (t) => {
  const slots = new DecodeSlots({ size: 2, maxQueued: 1, maxWaitMs: 60_000 });
  const started: string[] = [];
  const [a, b, c] = [held(started, 'a'), held(started, 'b'), held(started, 'c')];
  const running = [slots.run(a.work), slots.run(b.work), slots.run(c.work)];
  await Promise.resolve();
  t.deepEqual(started, ['a', 'b'], 'two at once');
  const refused = await slots.run(() => Promise.resolve('d')).catch((err: unknown) => err);
  t.true(isAppError(refused) && refused.code === 'resource_exhausted' && (refused.retryAfterSeconds ?? 0) > 0, String(refused));
  a.finish();
  t.is(await running[0], 'a');
  await new Promise((resolve) => setImmediate(resolve));
  t.deepEqual(started, ['a', 'b', 'c'], 'the waiting one takes the freed slot');
  b.finish();
  c.finish();
  t.deepEqual(await Promise.all(running), ['a', 'b', 'c']);
  t.is(await slots.run(() => Promise.resolve('e')), 'e', 'every slot is free again');
});

test('a decode that waits longer than maxWaitMs is refused resource_exhausted, and a failed decode frees its slot', async (t) => {
  const slots = new DecodeSlots({ size: 1, maxQueued: 4, maxWaitMs: 50 });
  const started: string[] = [];
  const a = held(started, 'a');
  const first = slots.run(a.work);
  const late = await slots.run(() => Promise.resolve('late')).catch((err: unknown) => err);
  t.true(isAppError(late) && late.code === 'resource_exhausted', String(late));
  a.finish();
  await first;
  await t.throwsAsync(slots.run(() => Promise.reject(new Error('corrupt'))), { message: 'corrupt' });
  t.is(await slots.run(() => Promise.resolve('next')), 'next');
});
