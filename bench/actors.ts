/**
 * Actor runtime figures (issue 3), against real `svc serve --role actors` processes:
 *  (a) command throughput through the client API with 1,000 active rooms on 2 hosts —
 *      playback/read commands (closed loop), their latency at half that rate (open loop),
 *      and durable chat sends acknowledged after commit;
 *  (b) cold activation latency (first command to a room not active anywhere);
 *  (c) crash failover: time after `kill -9` of the owning host (one of 3) until a command
 *      succeeds, 20 kills;
 *  (d) stall failover: the same after SIGSTOP of the owner (it may still be serving, so the
 *      lease decides), 10 stalls.
 * Run with `npm run bench:actors`; BENCH_PHASES (`throughput,failover`, the default) picks phases;
 * BENCH_SECONDS, BENCH_ROOMS, BENCH_CONCURRENCY, BENCH_KILLS tune it, BENCH_HOST_NODE_OPTIONS is
 * passed to the hosts, BENCH_OTLP_ENDPOINT turns tracing on (bench/tracing.ts). Host incidents (a lost lease, a fenced
 * actor) are printed under the phase they happened in.
 */
import { AppError } from '../errors/app-error.js';
import { ActorCluster } from '../test/harness/actor-cluster.js';
import { percentile } from './percentile.js';
import { rssBytes } from './proc.js';
import { closedLoop, createRooms, describe, ownerOf, playbackCommand, roomId } from './room-load.js';
import { hostTracingEnv, startBenchTracing, tracingFromEnv } from './tracing.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
const load = { rooms: ROOMS, concurrency: CONCURRENCY, seconds: SECONDS };
const FAILOVER_KILLS = Number(process.env.BENCH_KILLS ?? 20);
const FAILOVER_STALLS = Number(process.env.BENCH_STALLS ?? 10);
/** The playback/read throughput target, commands/s. */
const TARGET_RATE = 20_000;
/** Extra NODE_OPTIONS for the host processes, e.g. V8 flags or an `--import` hook when profiling. */
const HOST_NODE_OPTIONS = process.env.BENCH_HOST_NODE_OPTIONS;
const hostEnv = { ...(HOST_NODE_OPTIONS ? { NODE_OPTIONS: HOST_NODE_OPTIONS } : {}), ...hostTracingEnv(tracingFromEnv()) };
const ms = (value: number): string => `${value.toFixed(2)} ms`;

/** Host log lines that mean the cluster misbehaved under the load (they explain failed commands). */
const INCIDENTS = ['host lost its liveness', 'actor fenced'];

/** Incident lines the hosts printed since the last call, counted, with the first one's reason. */
function incidents(cluster: ActorCluster, seen: Map<string, number>): string {
  const counts = new Map<string, { count: number; reason: string }>();
  for (const [hostId, replica] of cluster.hosts) {
    const lines = replica.process.lines;
    for (let i = seen.get(hostId) ?? 0; i < lines.length; i += 1) {
      const line = lines[i] ?? '';
      const hit = INCIDENTS.find((text) => line.includes(`"msg":"${text}"`));
      if (!hit) continue;
      const entry = counts.get(hit) ?? { count: 0, reason: String((JSON.parse(line) as { reason?: unknown }).reason) };
      entry.count += 1;
      counts.set(hit, entry);
    }
    seen.set(hostId, lines.length);
  }
  return [...counts].map(([text, { count, reason }]) => `\n      hosts: ${text} x${count} (first: ${reason})`).join('');
}

function summary(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `p50 ${ms(percentile(sorted, 50))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted.at(-1) ?? Number.NaN)}  (n=${sorted.length})`;
}

/**
 * Open loop at a fixed rate for SECONDS: commands go out on schedule whatever the backlog
 * (what is owed is computed from the clock, so a late timer is caught up, not skipped), and
 * every command's latency is kept. Ticks of 1 ms keep the bursts small.
 */
async function openLoop(cluster: ActorCluster, ratePerSecond: number): Promise<{ latencies: number[]; errors: number; shed: number }> {
  const latencies: number[] = [];
  let errors = 0;
  let shed = 0;
  let firstError: unknown;
  const started = performance.now();
  const inFlight: Array<Promise<void>> = [];
  let n = 0;
  for (let elapsed = 0; elapsed < SECONDS * 1000; elapsed = performance.now() - started) {
    const owed = Math.floor((elapsed / 1000) * ratePerSecond);
    for (; n < owed; n += 1) {
      const i = n;
      const t0 = performance.now();
      inFlight.push(
        cluster.client.send('room', roomId(i % ROOMS), playbackCommand(i), { caller: ownerOf(i % ROOMS), timeoutMs: 10_000 }).then(
          () => void latencies.push(performance.now() - t0),
          (err: unknown) => {
            errors += 1;
            if (err instanceof AppError && err.code === 'busy') shed += 1;
            firstError ??= err;
          },
        ),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  if (firstError) console.log(`    first error: ${describe(firstError)}`);
  return { latencies, errors, shed };
}

/** Resident memory of every host process, KiB (for sizing: memory per active room). */
async function hostsRssKiB(cluster: ActorCluster): Promise<number> {
  const sizes = await Promise.all([...cluster.hosts.values()].map((replica) => rssBytes(replica.process.child.pid!)));
  return sizes.reduce((sum, bytes) => sum + bytes, 0) / 1024;
}

async function throughputAndActivation(): Promise<void> {
  const cluster = await ActorCluster.start({ label: 'bench_actors', hosts: 2, env: hostEnv });
  const seen = new Map<string, number>();
  try {
    const idleRss = await hostsRssKiB(cluster);
    await createRooms(cluster.client, ROOMS);
    const activeRss = await hostsRssKiB(cluster);
    console.log(`(a) ${ROOMS} active rooms on 2 actor hosts, ${CONCURRENCY} commands in flight, ${SECONDS} s per phase`);
    console.log(
      `    actor hosts' RSS: ${(idleRss / 1024).toFixed(0)} MiB idle -> ${(activeRss / 1024).toFixed(0)} MiB with the rooms active = ${((activeRss - idleRss) / ROOMS).toFixed(1)} KiB per room (one playlist item, no members)`,
    );

    const playback = await closedLoop(cluster.client, playbackCommand, load);
    console.log(`    playback/read commands: ${playback.rate.toFixed(0)} commands/s (errors ${playback.errors})  target >= ${TARGET_RATE}${incidents(cluster, seen)}`);

    // "Half that load": half the 20,000/s target, and also half of what was just measured.
    for (const [label, rate] of [
      ['half the target load', TARGET_RATE / 2],
      ['half the measured rate', playback.rate / 2],
    ] as const) {
      const open = await openLoop(cluster, rate);
      console.log(`    latency at ${label} (${rate.toFixed(0)}/s, open loop): ${summary(open.latencies)} (errors ${open.errors}, of which busy ${open.shed})  target p99 < 10 ms${incidents(cluster, seen)}`);
    }

    const chat = await closedLoop(cluster.client, (n) => ({ kind: 'chat.send', text: `bench message ${n}` }), load);
    console.log(`    durable chat sends (acknowledged after commit): ${chat.rate.toFixed(0)} messages/s (errors ${chat.errors})  target >= 3000${incidents(cluster, seen)}`);

    // (b) Drain both hosts so no room is active, then start two fresh ones.
    for (const hostId of [...cluster.hosts.keys()]) await cluster.drain(hostId);
    await Promise.all([cluster.addHost(), cluster.addHost()]);
    const cold: number[] = [];
    for (let i = 0; i < Math.min(ROOMS, 500); i += 1) {
      const t0 = performance.now();
      await cluster.client.send('room', roomId(i), { kind: 'room.get' }, { caller: ownerOf(i), timeoutMs: 10_000 });
      cold.push(performance.now() - t0);
    }
    console.log(`(b) cold activation (first command to a persisted room, sequential): ${summary(cold)}  target p99 < 20 ms`);
  } finally {
    await cluster.stop();
  }
}

async function failover(): Promise<void> {
  const cluster = await ActorCluster.start({ label: 'bench_failover', hosts: 3, env: hostEnv });
  try {
    const crash = await failovers(
      cluster,
      'crash',
      FAILOVER_KILLS,
      (victim) => cluster.kill(victim),
      async () => void (await cluster.addHost()),
    );
    console.log(`(c) crash failover: kill -9 of the owner (1 of 3 hosts) to the first command succeeding: ${summary(crash)}  target p99 < 500 ms`);
    const stall = await failovers(
      cluster,
      'stall',
      FAILOVER_STALLS,
      (victim) => Promise.resolve(cluster.signal(victim, 'SIGSTOP')),
      (victim) => Promise.resolve(cluster.signal(victim, 'SIGCONT')),
    );
    console.log(`(d) stall failover: SIGSTOP of the owner (1 of 3 hosts) to the first command succeeding: ${summary(stall)}  (the lease, 1500 ms, decides)`);
    console.log(`    slowest: ${[...stall].sort((a, b) => b - a).slice(0, 5).map((value) => value.toFixed(0)).join(', ')} ms`);
  } finally {
    await cluster.stop();
  }
}

/** Times `rounds` failovers: a fresh room, its owner hit by `fault`, until a command to it succeeds. */
async function failovers(
  cluster: ActorCluster,
  label: string,
  rounds: number,
  fault: (victim: string) => Promise<void>,
  after: (victim: string) => Promise<void>,
): Promise<number[]> {
  const times: number[] = [];
  // Each phase's rooms belong to users of their own (a user may own only so many rooms).
  const users = label === 'crash' ? 0 : 10_000;
  for (let i = 0; i < rounds; i += 1) {
    const id = `${label}-${i}`;
    const caller = ownerOf(users + i);
    await cluster.client.send('room', id, { kind: 'room.create', name: id, visibility: 'public' }, { caller, timeoutMs: 10_000 });
    const victim = await cluster.ownerOf('room', id);
    if (!victim) throw new Error(`no owner recorded for ${id}`);
    const t0 = performance.now();
    const faulted = fault(victim);
    await cluster.client.send('room', id, { kind: 'room.get' }, { caller, timeoutMs: 10_000 });
    times.push(performance.now() - t0);
    await faulted;
    await after(victim);
  }
  return times;
}

const PHASES = new Set((process.env.BENCH_PHASES ?? 'throughput,failover').split(','));

async function main(): Promise<void> {
  const tracing = startBenchTracing(tracingFromEnv());
  if (PHASES.has('throughput')) await throughputAndActivation();
  if (PHASES.has('failover')) await failover();
  await tracing.shutdown();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
