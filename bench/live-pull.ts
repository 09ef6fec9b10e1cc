/**
 * Pulled livestream latency (issue 40 section 6, docs/2026-11-29-pulled-live-streams.md): a
 * camera stand-in (ffmpeg publishing a 320x240 test pattern with a 1 s GOP and AAC) is already
 * live when a member's player first asks for the item, which is when the service starts pulling
 * it. Timed from that first request (a cold pull each run: a new item):
 *   - the first FLV media tag over HTTP from /media/live/.../stream.flv (target < 1 s);
 *   - the first HLS segment listed in index.m3u8 and readable (target < 2 s);
 * for RTSP (ffmpeg publishing to MediaMTX, the service pulling it as a camera's player would) and
 * SRT (ffmpeg as the SRT listener, the service the caller). Then a second player's first FLV
 * media on the running pull. BENCH_LIVE_RUNS runs each (default 5), medians printed.
 * Run with `npm run bench:live-pull` (infra/bench.sh, which builds MediaMTX with install.sh).
 */
import { fileURLToPath } from 'node:url';
import { startGatewayBed, type GatewayBed } from '../test/gateways/bed.js';
import { createRoom, roomsOf, type Rooms } from '../test/gateways/ws/fixtures.js';
import { freePort } from '../test/harness/stack.js';
import { liveLink, publish, type Publisher } from '../test/media/live-fixtures.js';
import { startMediaMtx } from '../test/media/mediamtx.js';
import { firstFlvMedia, firstHlsSegment } from './media-live.js';
import { percentile } from './percentile.js';

interface SourceFigures {
  source: string;
  firstFlvMs: number[];
  firstHlsSegmentMs: number[];
  secondViewerFlvMs: number[];
}

const median = (values: number[]): number => percentile([...values].sort((x, y) => x - y), 50);

async function pullOnce(bed: GatewayBed, rooms: Rooms, url: string, figures: SourceFigures): Promise<void> {
  const owner = await bed.signUp('benchpull');
  const room = await createRoom(rooms, owner);
  const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${room.id}/playlist`, { title: 'Camera', provider: 'pull', url }, owner.token);
  if (added.status !== 201) throw new Error(`adding the pull item failed: ${JSON.stringify(added.body)}`);
  const base = `${bed.url}${liveLink(bed, { roomId: room.id, userId: owner.userId, sessionId: owner.sessionId, mediaId: added.body.item.id })}`;
  const deadline = Date.now() + 20_000;
  const started = performance.now();
  const [flvAt, hlsAt] = await Promise.all([firstFlvMedia(`${base}/stream.flv`, deadline), firstHlsSegment(base, deadline)]);
  figures.firstFlvMs.push(flvAt - started);
  figures.firstHlsSegmentMs.push(hlsAt - started);
  const second = performance.now();
  figures.secondViewerFlvMs.push((await firstFlvMedia(`${base}/stream.flv`, Date.now() + 10_000)) - second);
}

export async function benchLivePull(runs = Number(process.env.BENCH_LIVE_RUNS ?? 5)): Promise<SourceFigures[]> {
  const rtsp = await startMediaMtx();
  // Loopback sources are allowed here as in the tests; every run is a new pull, so room for all of them.
  const bed = await startGatewayBed('benchpull', { env: { SVC_MEDIA_PROXY_ALLOWED_NETWORKS: '127.0.0.0/8', SVC_LIVE_PULL_MAX_STREAMS: String(runs * 2 + 2) } });
  const rooms = await roomsOf(bed);
  const camera = publish(`${rtsp.url}/camera`, { format: 'rtsp' });
  try {
    await camera.sent(2);
    const rtspFigures: SourceFigures = { source: 'RTSP (ffmpeg -> MediaMTX)', firstFlvMs: [], firstHlsSegmentMs: [], secondViewerFlvMs: [] };
    for (let run = 0; run < runs; run++) await pullOnce(bed, rooms, `${rtsp.url}/camera`, rtspFigures);
    const srtFigures: SourceFigures = { source: 'SRT (ffmpeg listening)', firstFlvMs: [], firstHlsSegmentMs: [], secondViewerFlvMs: [] };
    for (let run = 0; run < runs; run++) {
      const port = await freePort();
      // An SRT listener serves one caller: a new one per run, waiting before the pull starts.
      const listener: Publisher = publish(`srt://127.0.0.1:${port}?mode=listener`, { format: 'mpegts' });
      try {
        await pullOnce(bed, rooms, `srt://127.0.0.1:${port}`, srtFigures);
      } finally {
        await listener.stop();
      }
    }
    return [rtspFigures, srtFigures];
  } finally {
    await camera.stop();
    await rooms.close();
    await bed.close();
    await rtsp.stop();
  }
}

export function printLivePull(all: SourceFigures[]): void {
  const ms = (value: number): string => `${value.toFixed(0)} ms`;
  for (const figures of all) {
    console.log(`pulled livestream, ${figures.source}, ${figures.firstFlvMs.length} runs (from the first player's request, a cold pull each):`);
    console.log(`  first FLV media bytes over HTTP: median ${ms(median(figures.firstFlvMs))} (target < 1000 ms)  runs: ${figures.firstFlvMs.map(ms).join(', ')}`);
    console.log(`  first HLS segment readable:      median ${ms(median(figures.firstHlsSegmentMs))} (target < 2000 ms)  runs: ${figures.firstHlsSegmentMs.map(ms).join(', ')}`);
    console.log(`  a second player's first FLV media: median ${ms(median(figures.secondViewerFlvMs))}  runs: ${figures.secondViewerFlvMs.map(ms).join(', ')}`);
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printLivePull(await benchLivePull());
  process.exit(0);
}
