/**
 * The slice cache inside a whole service: a gateway with `proxy_slice_cache.enabled` opens it
 * under `<data_dir>/slice-cache` with the configured size, and its counts show on `/metrics`
 * and in `svc system stats` (a separate CLI process over the management socket). Until the
 * media proxy routes land, reads go through the cache the service exposes.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import test from 'ava';
import { eventually } from '../fixtures/deadline.js';
import { startNginx, type Nginx } from '../fixtures/nginx.js';
import { httpSliceResource } from '../fixtures/slice-upstream.js';
import { startGatewayBed, type GatewayBed } from '../gateways/bed.js';
import { runSvc } from '../harness/svc-process.js';
import { MiB, randomFile, read, removeDir, SLICE, tempDir } from './slice-cache-bed.js';

let bed: GatewayBed;
let nginx: Nginx;
let root: string;

test.before(async () => {
  root = await tempDir('svc-slice-root-');
  nginx = await startNginx({ root });
  bed = await startGatewayBed('slice_cache', {
    env: { SVC_PROXY_SLICE_CACHE_ENABLED: 'true', SVC_PROXY_SLICE_CACHE_SIZE_MB: '16' },
  });
});

test.after.always(async () => {
  await bed?.close();
  await nginx?.stop();
  await removeDir(root);
});

test('hits, misses, bytes and size show on /metrics and in svc system stats', async (t) => {
  const cache = bed.service.sliceCache;
  if (!cache) return t.fail('the service opened no slice cache');
  const file = await randomFile(root, 'movie.mp4', 3 * MiB);
  const resource = httpSliceResource(`${nginx.url}/movie.mp4`);
  t.true((await read(cache, resource, 'bytes=0-999')).body.equals(file.subarray(0, 1000)));
  t.true((await read(cache, resource, 'bytes=0-999')).body.equals(file.subarray(0, 1000)));
  // Slices are written to disk just after they are served.
  await eventually(
    async () => (await readdir(join(bed.config.data_dir, 'slice-cache'))).some((name) => name.endsWith('.slice')),
    10_000,
    'a slice file under <data_dir>/slice-cache',
  );

  const metrics = await (await fetch(`${bed.metricsUrl}/metrics`)).text();
  t.regex(metrics, /^svc_slice_cache_hits_total 1$/m);
  t.regex(metrics, /^svc_slice_cache_misses_total 1$/m);
  t.regex(metrics, new RegExp(`^svc_slice_cache_bytes_total\\{source="upstream"\\} ${SLICE}$`, 'm'));
  t.regex(metrics, /^svc_slice_cache_bytes_total\{source="cache"\} 1000$/m);
  t.regex(metrics, /^svc_slice_cache_evictions_total 0$/m);
  t.regex(metrics, /^svc_slice_cache_revalidations_total 0$/m);
  t.regex(metrics, new RegExp(`^svc_slice_cache_size_bytes ${SLICE}$`, 'm'));
  t.regex(metrics, new RegExp(`^svc_slice_cache_max_bytes ${16 * MiB}$`, 'm'));

  const cliEnv = { SVC_DATA_DIR: bed.config.data_dir };
  const json = await runSvc(['system', 'stats', '--output', 'json'], cliEnv);
  t.is(json.code, 0, json.stderr);
  const stats = JSON.parse(json.stdout) as { sliceCache?: Record<string, number> };
  t.deepEqual(stats.sliceCache, {
    hits: 1,
    misses: 1,
    bytesFromCache: 1000,
    bytesFromUpstream: SLICE,
    evictions: 0,
    revalidations: 0,
    readaheads: 0,
    entries: 1,
    sizeBytes: SLICE,
    maxBytes: 16 * MiB,
  });
  const table = await runSvc(['system', 'stats'], cliEnv);
  t.is(table.code, 0, table.stderr);
  t.regex(table.stdout, /hits \/ misses\s*│\s*1 \/ 1/);
  t.regex(table.stdout, /size\s*│\s*2\.0 MiB of 16\.0 MiB \(1 slices\)/);
});
