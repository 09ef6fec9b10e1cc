/**
 * Livestream latency figures (issue 12): on one service (gateway + actors, in this process, on
 * the throwaway stack like the gateway tests), a room with a live item; for each run, ffmpeg
 * starts publishing a test pattern (1 s GOP) to the RTMP ingest and we time, from the moment
 * ffmpeg is spawned:
 *   - the first FLV bytes of a media tag read over HTTP from /media/live/.../stream.flv
 *     (target < 500 ms): the FLV header comes at once, so the figure waits for the first tag
 *     after the header and metadata, i.e. real media;
 *   - the first HLS segment listed in index.m3u8 and readable (target < 3 s).
 * The FLV reader retries from the spawn on (a stream that is not yet published answers 404),
 * the way a player retries. Runs BENCH_LIVE_RUNS times (default 5) and prints medians.
 * Run alone with `infra/bench.sh media-live`, or call `benchMediaLive()`.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startGatewayBed, type GatewayBed } from '../test/gateways/bed.js';
import { createRoom, roomsOf } from '../test/gateways/ws/fixtures.js';
import { liveLink } from '../test/media/live-fixtures.js';
import { percentile } from './percentile.js';

export interface MediaLiveFigures {
  runs: number;
  /** ms from spawning the publisher to the first FLV media tag over HTTP, per run. */
  firstFlvMs: number[];
  /** ms from spawning the publisher to the first HLS segment readable, per run. */
  firstHlsSegmentMs: number[];
  medianFirstFlvMs: number;
  medianFirstHlsSegmentMs: number;
}

const FLV_HEADER_BYTES = 9 + 4;
const POLL_MS = 20;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for the first FLV tag of type audio (8) or video (9) and returns when it arrived. */
export async function firstFlvMedia(url: string, deadline: number): Promise<number> {
  while (Date.now() < deadline) {
    const abort = new AbortController();
    try {
      const response = await fetch(url, { signal: abort.signal });
      if (response.status !== 200 || !response.body) {
        await response.body?.cancel();
        await sleep(POLL_MS);
        continue;
      }
      // @types/node 20 types fetch's body as ReadableStream<any>; it yields bytes.
      const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
      let buffer = Buffer.alloc(0);
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer = Buffer.concat([buffer, Buffer.from(value)]);
        // Walk the tags after the header: type(1) size(3) ts(4) stream(3) data(size) prevsize(4).
        let offset = FLV_HEADER_BYTES;
        while (buffer.length >= offset + 11) {
          const type = buffer[offset] ?? 0;
          const size = buffer.readUIntBE(offset + 1, 3);
          if (type === 8 || type === 9) {
            const at = performance.now();
            abort.abort();
            return at;
          }
          offset += 11 + size + 4;
        }
      }
    } catch {
      // Not published yet, or aborted: try again.
    }
    await sleep(POLL_MS);
  }
  throw new Error('no FLV media before the deadline');
}

export async function firstHlsSegment(base: string, deadline: number): Promise<number> {
  while (Date.now() < deadline) {
    try {
      const playlist = await fetch(`${base}/index.m3u8`);
      if (playlist.status === 200) {
        const segment = /^(seg\d+\.(?:ts|png))$/m.exec(await playlist.text())?.[1];
        if (segment) {
          const answer = await fetch(`${base}/${segment}`);
          if (answer.status === 200 && (await answer.arrayBuffer()).byteLength > 0) return performance.now();
        }
      } else await playlist.body?.cancel();
    } catch {
      // Not there yet.
    }
    await sleep(POLL_MS);
  }
  throw new Error('no HLS segment before the deadline');
}

function publisher(url: string) {
  const child = spawn(
    'ffmpeg',
    ['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30', '-re', '-f', 'lavfi', '-i', 'sine',
      '-c:v', 'libx264', '-preset', 'ultrafast', '-tune', 'zerolatency', '-g', '30', '-c:a', 'aac', '-f', 'flv', url],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    async stop() {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export async function benchMediaLive(runs = Number(process.env.BENCH_LIVE_RUNS ?? 5), existing?: GatewayBed): Promise<MediaLiveFigures> {
  const bed = existing ?? (await startGatewayBed('benchlive'));
  const rooms = await roomsOf(bed);
  try {
    const owner = await bed.signUp('bench');
    const room = await createRoom(rooms, owner);
    const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${room.id}/playlist`, { title: 'Bench', provider: 'live' }, owner.token);
    const mediaId = added.body.item.id;
    const key = await bed.call<{ url: string }>('GET', `/api/rooms/${room.id}/playlist/${mediaId}/stream-key`, undefined, owner.token);
    const base = `${bed.url}${liveLink(bed, { roomId: room.id, userId: owner.userId, sessionId: owner.sessionId, mediaId })}`;
    const firstFlvMs: number[] = [];
    const firstHlsSegmentMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const started = performance.now();
      const ffmpeg = publisher(key.body.url);
      try {
        const deadline = Date.now() + 15_000;
        const [flvAt, hlsAt] = await Promise.all([firstFlvMedia(`${base}/stream.flv`, deadline), firstHlsSegment(base, deadline)]);
        firstFlvMs.push(flvAt - started);
        firstHlsSegmentMs.push(hlsAt - started);
      } finally {
        await ffmpeg.stop();
      }
      // The next run starts from an offline item, as a new publish would.
      for (const until = Date.now() + 10_000; Date.now() < until; ) {
        const answer = await fetch(`${base}/index.m3u8`);
        await answer.body?.cancel();
        if (answer.status === 404) break;
        await sleep(POLL_MS);
      }
    }
    return {
      runs,
      firstFlvMs,
      firstHlsSegmentMs,
      medianFirstFlvMs: percentile([...firstFlvMs].sort((x, y) => x - y), 50),
      medianFirstHlsSegmentMs: percentile([...firstHlsSegmentMs].sort((x, y) => x - y), 50),
    };
  } finally {
    await rooms.close();
    if (!existing) await bed.close();
  }
}

export function printMediaLive(figures: MediaLiveFigures): void {
  const ms = (value: number): string => `${value.toFixed(0)} ms`;
  console.log(`livestream, ${figures.runs} runs (from spawning the RTMP publisher):`);
  console.log(`  first FLV media bytes over HTTP: median ${ms(figures.medianFirstFlvMs)} (target < 500 ms)  runs: ${figures.firstFlvMs.map(ms).join(', ')}`);
  console.log(`  first HLS segment readable:      median ${ms(figures.medianFirstHlsSegmentMs)} (target < 3000 ms)  runs: ${figures.firstHlsSegmentMs.map(ms).join(', ')}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  printMediaLive(await benchMediaLive());
  process.exit(0);
}
