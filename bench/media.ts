/**
 * bench:media — the figures of issue 12, side by side in one run:
 *  1. reading a 1 GiB file in 2 MiB ranges through the media proxy, on a slice-cache miss
 *     (upstream: Debian's nginx) and on a hit, each as a ratio to nginx serving the file
 *     directly (targets: miss >= 0.6, hit >= 0.9); for reference, nginx itself as a
 *     slice-caching proxy of the same file on the same machine (its miss and hit, as ratios
 *     too: what the machine allows this design), and the hit read in one Range as a browser's
 *     player does;
 *  2. 16 concurrent readers of one uncached file: upstream requests per slice (target 1);
 *  3. RTMP publish to the first FLV bytes (target < 500 ms) and to the first HLS segment (< 3 s).
 *
 * The proxy runs as its own `svc serve --role gateway` process, as in a deployment, so the
 * reader (this process) and the proxy do not share an event loop; nginx is likewise its own
 * process. Rooms, members and the livestream run on an in-process service sharing the
 * database, NATS and the media-URL key with that gateway.
 *
 * A single pass of nginx direct moves by a third from one run to the next on a shared 2-core
 * machine, so nginx direct and the hit are read in alternation, BENCH_MEDIA_ROUNDS times, and
 * each ratio is of medians. A miss needs a file never read through the cache: one pass.
 *
 * Knobs: BENCH_MEDIA_BYTES (default 1 GiB), BENCH_MEDIA_CONCURRENT_BYTES (64 MiB),
 * BENCH_MEDIA_ROUNDS (3), BENCH_LIVE_RUNS (5).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startNginx, type Nginx } from '../test/fixtures/nginx.js';
import type { GatewayBed } from '../test/gateways/bed.js';
import { generatedSecrets, replicaEnv, startReplica, type Replica } from '../test/harness/replica.js';
import { freePort } from '../test/harness/stack.js';
import { addItem, createRoom, eventually, proxiedUrl, startMediaBed } from '../test/media/media-bed.js';
import { benchMediaLive, printMediaLive } from './media-live.js';
import { concurrentReaders, createMediaFile, GiB, httpRangeReader, MiB, sequentialThroughput, startNginxSliceProxy, type Throughput } from './media-proxy.js';

const size = Number(process.env.BENCH_MEDIA_BYTES ?? GiB);
const crowdBytes = Math.min(size, Number(process.env.BENCH_MEDIA_CONCURRENT_BYTES ?? 64 * MiB));
const rounds = Math.max(1, Number(process.env.BENCH_MEDIA_ROUNDS ?? 3));

const fmt = (t: Throughput): string => `${t.mbPerSecond.toFixed(0).padStart(6)} MB/s (${(t.bytes / MiB).toFixed(0)} MiB in ${t.seconds.toFixed(2)} s)`;

/** The run with the median throughput, and every run's figure. */
function median(runs: Throughput[]): Throughput & { all: string } {
  const sorted = [...runs].sort((a, b) => a.mbPerSecond - b.mbPerSecond);
  return { ...sorted[Math.floor(sorted.length / 2)]!, all: runs.map((r) => r.mbPerSecond.toFixed(0)).join(', ') };
}

/** A series of the gateway's /metrics (the slice cache's, which have no labels), from its metrics listener. */
async function metric(metricsUrl: string, name: string): Promise<number> {
  const text = await (await fetch(`${metricsUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), 'svc-bench-media-'));
  let nginx: Nginx | undefined;
  let nginxProxy: Nginx | undefined;
  let bed: GatewayBed | undefined;
  let gateway: Replica | undefined;
  try {
    const file = await createMediaFile(root, size);
    const crowdFile = await createMediaFile(root, crowdBytes, 'crowd.bin');
    nginx = await startNginx({ root });
    bed = await startMediaBed('benchmedia');
    const env = await replicaEnv(bed.databaseUrl, await generatedSecrets(), {
      SVC_NATS_SUBJECT_PREFIX: bed.config.nats.subject_prefix,
      SVC_CREDENTIAL_ENCRYPTION_KEY: bed.config.credential_encryption_key,
      SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8',
      SVC_PROXY_SLICE_CACHE_ENABLED: 'true',
      SVC_PROXY_SLICE_CACHE_SIZE_MB: String(Math.ceil((size + 2 * crowdBytes) / MiB) + 64),
      SVC_METRICS_LISTEN: `127.0.0.1:${await freePort()}`,
    });
    gateway = await startReplica(['--role', 'gateway', '--replica-id', 'bench-media-proxy'], env);

    const owner = await bed.signUp('benchmedia');
    const roomId = await createRoom(bed, owner);
    // Signed by the in-process service, read through the gateway process (same key, same rooms).
    const onGateway = async (name: string): Promise<string> => {
      const mediaId = await addItem(bed as GatewayBed, roomId, owner, { url: `${(nginx as Nginx).url}/${name}`, proxy: true });
      const url = new URL(await proxiedUrl(bed as GatewayBed, roomId, mediaId, owner));
      return `${(gateway as Replica).httpUrl}${url.pathname}`;
    };
    const viaProxy = await onGateway(file.name);
    const crowdViaProxy = await onGateway(crowdFile.name);

    const direct = `${nginx.url}/${file.name}`;
    await sequentialThroughput(httpRangeReader(direct), Math.min(size, 64 * MiB)); // warm-up: page cache, connections
    const directRuns = [await sequentialThroughput(httpRangeReader(direct), size)];
    const miss = await sequentialThroughput(httpRangeReader(viaProxy), size);
    const metricsUrl = gateway.metricsUrl;
    if (!(await eventually(async () => (await metric(metricsUrl, 'svc_slice_cache_size_bytes')) >= size, 60_000))) console.log('  (the cache had not written every slice after 60 s)');
    const readaheads = await metric(metricsUrl, 'svc_slice_cache_readahead_total');
    const hitRuns: Throughput[] = [];
    for (let round = 0; round < rounds; round++) {
      hitRuns.push(await sequentialThroughput(httpRangeReader(viaProxy), size));
      if (round > 0) directRuns.push(await sequentialThroughput(httpRangeReader(direct), size));
    }
    const nginxDirect = median(directRuns);
    const hit = median(hitRuns);
    console.log(`media proxy: sequential reads of a ${(size / MiB).toFixed(0)} MiB file in 2 MiB ranges (nginx direct and hit: medians of ${rounds})`);
    console.log(`  nginx direct              ${fmt(nginxDirect)}  runs: ${nginxDirect.all} MB/s`);
    console.log(`  proxy, slice cache miss   ${fmt(miss)}  ratio ${(miss.mbPerSecond / nginxDirect.mbPerSecond).toFixed(2)} (target >= 0.6), ${readaheads} of ${size / (2 * MiB)} slices read ahead`);
    console.log(`  proxy, slice cache hit    ${fmt(hit)}  ratio ${(hit.mbPerSecond / nginxDirect.mbPerSecond).toFixed(2)} (target >= 0.9)  runs: ${hit.all} MB/s`);

    // The same design in C on the same machine: what is the machine's and what is ours.
    nginxProxy = await startNginxSliceProxy(nginx, await mkdtemp(join(root, 'nginx-slices-')));
    const viaNginx = httpRangeReader(`${nginxProxy.url}/${file.name}`);
    const nginxMiss = await sequentialThroughput(viaNginx, size);
    const nginxHit = await sequentialThroughput(viaNginx, size);
    const ratio = (t: Throughput): string => (t.mbPerSecond / nginxDirect.mbPerSecond).toFixed(2);
    console.log(`  reference: nginx as a slice-caching proxy (slice 2m + proxy_cache), miss ${fmt(nginxMiss)} ratio ${ratio(nginxMiss)}; hit ${fmt(nginxHit)} ratio ${ratio(nginxHit)}`);
    await nginxProxy.stop();
    nginxProxy = undefined;

    // What a browser's <video> does: one Range for the rest of the file, streamed slice by slice.
    const wholeDirect = await sequentialThroughput(httpRangeReader(direct), size, size);
    const wholeHit = await sequentialThroughput(httpRangeReader(viaProxy), size, size);
    console.log(
      `  one Range for the whole file (a browser's open-ended read), hit: ${fmt(wholeHit)}  ratio ${(wholeHit.mbPerSecond / wholeDirect.mbPerSecond).toFixed(2)} ` +
        `to nginx's ${wholeDirect.mbPerSecond.toFixed(0)} MB/s (no target)`,
    );

    const crowd = await concurrentReaders(httpRangeReader(crowdViaProxy), nginx, `/${crowdFile.name}`, { bytes: crowdBytes });
    console.log(
      `  ${crowd.readers} concurrent readers of an uncached ${(crowdBytes / MiB).toFixed(0)} MiB file: ${crowd.upstreamRequests} upstream requests ` +
        `for ${crowd.slices} slices, at most ${crowd.maxPerSlice} per slice (target 1), ${crowd.seconds.toFixed(2)} s`,
    );

    printMediaLive(await benchMediaLive(undefined, bed));
  } finally {
    await gateway?.process.terminate();
    if (gateway?.env.SVC_DATA_DIR) await rm(gateway.env.SVC_DATA_DIR, { recursive: true, force: true });
    await bed?.close();
    await nginxProxy?.stop();
    await nginx?.stop();
    await rm(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
