/**
 * What a livestream costs a gateway, for sizing (`infra/bench.sh live-load`): on one service
 * (gateway + actors, in this process, on the throwaway stack), BENCH_STREAMS rooms (default 4)
 * each get a live item published over RTMP from a prepared 720p30 H.264/AAC file (about
 * 2.5 Mbit/s; ffmpeg copies it, so publishing costs little), with BENCH_VIEWERS FLV viewers per
 * stream (curl processes, default 5) and one HLS reader polling playlist and segments. Over
 * BENCH_SECONDS (default 20) of steady streaming it prints the CPU of the service process, of the
 * HLS transmuxers (the ffmpeg children the gateway runs) and the growth of the process's RSS,
 * per stream.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayBed } from '../test/gateways/bed.js';
import { createRoom, roomsOf } from '../test/gateways/ws/fixtures.js';
import { liveLink } from '../test/media/live-fixtures.js';
import { cpuSeconds } from './proc.js';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 4);
const VIEWERS = Number(process.env.BENCH_VIEWERS ?? 5);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** A 20 s 720p30 clip with sound, made once (the publishers loop it without re-encoding). */
function clip(): string {
  const file = join(tmpdir(), 'svc-bench-720p30.flv');
  if (existsSync(file)) return file;
  const made = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=30', '-f', 'lavfi', '-i', 'sine=frequency=440',
    '-t', '20', '-c:v', 'libx264', '-preset', 'veryfast', '-b:v', '2400k', '-maxrate', '2400k', '-bufsize', '4800k', '-g', '60', '-c:a', 'aac', '-b:a', '128k', file]);
  if (made.status !== 0) throw new Error(`making the clip failed: ${made.stderr.toString()}`);
  return file;
}

/** The HLS transmuxers: ffmpeg children of this process reading FLV from stdin. */
function transmuxers(): number[] {
  const listed = spawnSync('ps', ['--ppid', String(process.pid), '-o', 'pid=,args=']).stdout.toString();
  return listed
    .split('\n')
    .filter((line) => line.includes('ffmpeg') && line.includes('pipe:0'))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

async function main(): Promise<void> {
  const file = clip();
  const bed = await startGatewayBed('benchliveload');
  const rooms = await roomsOf(bed);
  const children: ChildProcess[] = [];
  let reading = true;
  try {
    const owner = await bed.signUp('bench');
    const hlsBases: string[] = [];
    for (let stream = 0; stream < STREAMS; stream += 1) {
      const room = await createRoom(rooms, owner);
      const added = await bed.call<{ item: { id: string } }>('POST', `/api/rooms/${room.id}/playlist`, { title: `Live ${stream}`, provider: 'live' }, owner.token);
      const mediaId = added.body.item.id;
      const key = await bed.call<{ url: string }>('GET', `/api/rooms/${room.id}/playlist/${mediaId}/stream-key`, undefined, owner.token);
      const base = `${bed.url}${liveLink(bed, { roomId: room.id, userId: owner.userId, sessionId: owner.sessionId, mediaId })}`;
      children.push(spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-nostdin', '-re', '-stream_loop', '-1', '-i', file, '-c', 'copy', '-f', 'flv', key.body.url], { stdio: 'ignore' }));
      for (let viewer = 0; viewer < VIEWERS; viewer += 1) {
        children.push(spawn('curl', ['-s', '-o', '/dev/null', '--retry', '20', '--retry-delay', '1', '--retry-all-errors', `${base}/stream.flv`], { stdio: 'ignore' }));
      }
      hlsBases.push(base);
    }
    // One HLS reader per stream, as a player polls.
    const hlsReaders = hlsBases.map(async (base) => {
      while (reading) {
        try {
          const playlist = await fetch(`${base}/index.m3u8`);
          const segment = playlist.status === 200 ? /^(seg\d+\.(?:ts|png))$/m.exec(await playlist.text())?.[1] : undefined;
          if (segment) await (await fetch(`${base}/${segment}`)).arrayBuffer();
        } catch {
          // Not published yet.
        }
        await sleep(1000);
      }
    });

    // Let every stream reach a steady state (publishing, transmuxing, viewers reading).
    await sleep(8000);
    const muxers = transmuxers();
    const startCpu = process.cpuUsage();
    const muxCpu = async () => (await Promise.all(muxers.map(cpuSeconds))).reduce((sum, seconds) => sum + seconds, 0);
    const startMux = await muxCpu();
    const startRss = process.memoryUsage().rss;
    const startedAt = performance.now();
    await sleep(SECONDS * 1000);
    const elapsed = (performance.now() - startedAt) / 1000;
    const cpu = process.cpuUsage(startCpu);
    const serviceCore = (cpu.user + cpu.system) / 1e6 / elapsed;
    const muxCore = ((await muxCpu()) - startMux) / elapsed;
    const rssMiB = process.memoryUsage().rss / 2 ** 20;
    console.log(`${STREAMS} live streams (720p30, ~2.5 Mbit/s), ${VIEWERS} FLV viewers + 1 HLS reader each, ${elapsed.toFixed(0)} s:`);
    console.log(`  transmuxers running: ${muxers.length}`);
    console.log(`  service process: ${(serviceCore * 100).toFixed(1)} % of a core in all, ${((serviceCore / STREAMS) * 100).toFixed(1)} % per stream`);
    console.log(`  HLS transmuxers (ffmpeg): ${((muxCore / STREAMS) * 100).toFixed(1)} % of a core per stream`);
    console.log(`  service RSS: ${rssMiB.toFixed(0)} MiB (grew ${((process.memoryUsage().rss - startRss) / 2 ** 20).toFixed(0)} MiB while measuring)`);
    reading = false;
    await Promise.all(hlsReaders);
  } finally {
    for (const child of children) child.kill('SIGKILL');
    await rooms.close();
    await bed.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
