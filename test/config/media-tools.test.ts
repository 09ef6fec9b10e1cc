/**
 * The media tool pool's startup keys (media_tools.*, docs/2026-11-29-media-tool-pool.md): its
 * size defaults to the machine's cores (at most 8), and every bound is range-checked by name.
 */
import test from 'ava';
import { availableParallelism } from 'node:os';
import { loadConfig } from '../../config/load.js';
import { findKey } from '../../config/keys.js';

async function issuesFor(env: Record<string, string>): Promise<Array<{ key: string; message: string }>> {
  const { issues } = await loadConfig({ env });
  return issues.filter((issue) => issue.key.startsWith('media_tools.'));
}

test('the pool defaults to one tool per core (at most 8), a line of 32 and a 15 s wait', async (t) => {
  const { config } = await loadConfig({ env: {} });
  t.deepEqual(config.media_tools, { concurrency: Math.min(8, availableParallelism()), queue_size: 32, queue_wait_ms: 15_000 });
  t.deepEqual(await issuesFor({}), []);
  t.regex(findKey('media_tools.concurrency')?.description ?? '', /ffprobe\/ffmpeg/);
});

test('the environment sets the pool, and out-of-range values are refused naming the key', async (t) => {
  const { config } = await loadConfig({ env: { SVC_MEDIA_TOOLS_CONCURRENCY: '3', SVC_MEDIA_TOOLS_QUEUE_SIZE: '0', SVC_MEDIA_TOOLS_QUEUE_WAIT_MS: '500' } });
  t.deepEqual(config.media_tools, { concurrency: 3, queue_size: 0, queue_wait_ms: 500 });
  const issues = await issuesFor({ SVC_MEDIA_TOOLS_CONCURRENCY: '0', SVC_MEDIA_TOOLS_QUEUE_SIZE: '-1', SVC_MEDIA_TOOLS_QUEUE_WAIT_MS: '99' });
  t.deepEqual(
    issues.map((issue) => issue.key),
    ['media_tools.concurrency', 'media_tools.queue_size', 'media_tools.queue_wait_ms'],
  );
  t.regex(issues[0]!.message, /1\.\.=256 \(got 0\)/);
});
