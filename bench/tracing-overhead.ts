/**
 * What tracing costs the actor runtime (issue 29: under 5 % of closed-loop throughput), measured
 * A/B on one cluster: 2 actor hosts with BENCH_ROOMS rooms that export to Jaeger (built from its
 * Go module by install.sh, on loopback ports, spans in memory). The benchmark's client plays the
 * gateway, where every trace is decided, and the hosts follow what it sends. It drives the
 * playback/read mix of bench:actors in windows of BENCH_SECONDS, its own tracing off and on
 * alternately (ABBA) for BENCH_ROUNDS rounds, so that whatever else the machine does falls on
 * both alike; the cost is one minus the median of each round's on/off ratio.
 *
 * Two clusters, one traced and one not, read a 4-9 % difference between two untraced ones: their
 * rooms spread over their hosts differently. With one cluster, the hosts' side of "off" is an
 * envelope with no `traceparent`, which costs a host with tracing configured one property check
 * per turn over one without (activation.ts).
 *
 * Variants: an A/A run with the client's tracing off in both windows (what the method itself
 * reads as a cost), the default configuration (telemetry.sample_ratio and
 * max_traces_per_second as shipped), then the ratios of BENCH_TRACE_RATIOS (default
 * `0,0.01,0.1,1`) without the cap, to show what recording costs. BENCH_OTLP_ENDPOINT sends the
 * spans to another collector than the Jaeger this benchmark starts; BENCH_VERBOSE=1 prints every
 * window's rates. Run with `npm run bench:tracing`.
 */
import { setTracingEnabled } from '../observability/tracing-context.js';
import { ActorCluster } from '../test/harness/actor-cluster.js';
import { jaegerBinary, startJaeger, type Jaeger } from '../test/fixtures/jaeger.js';
import { median } from './percentile.js';
import { machineBusySeconds } from './proc.js';
import { closedLoop, createRooms, playbackCommand } from './room-load.js';
import { DEFAULT_SAMPLING, hostTracingEnv, samplingLabel, startBenchTracing, type BenchTracing } from './tracing.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 8);
const ROOMS = Number(process.env.BENCH_ROOMS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 256);
/** How the client traces in its "on" windows; no sampling: not at all (the A/A run). */
interface Variant {
  label: string;
  sampling?: Omit<BenchTracing, 'endpoint'>;
}
const VARIANTS: Variant[] = [
  { label: "tracing off in both windows (A/A: the method's own error)" },
  { label: `defaults (${samplingLabel(DEFAULT_SAMPLING)})`, sampling: DEFAULT_SAMPLING },
  ...(process.env.BENCH_TRACE_RATIOS ?? '0,0.01,0.1,1').split(',').filter(Boolean).map((ratio) => {
    const sampling = { sampleRatio: Number(ratio), maxPerSecond: 0 };
    return { label: samplingLabel(sampling), sampling };
  }),
];
const load = { rooms: ROOMS, concurrency: CONCURRENCY, seconds: SECONDS };
/** The issue's bound on the throughput tracing may cost. */
const TARGET_OVERHEAD = 0.05;

const mean = (values: readonly number[]): number => values.reduce((sum, value) => sum + value, 0) / values.length;
const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

/**
 * One window of the closed loop at `cluster`, with the client's tracing `traced` or not: the
 * rate of commands answered ok, how many failed (a host sheds with `busy` when commands wait
 * too long to start, as in bench:actors), and the machine's CPU seconds per command answered.
 */
async function window(cluster: ActorCluster, traced: boolean): Promise<{ rate: number; errors: number; cpuPerCommand: number }> {
  setTracingEnabled(traced);
  try {
    const busy = await machineBusySeconds();
    const { rate, errors } = await closedLoop(cluster.client, playbackCommand, load);
    return { rate, errors, cpuPerCommand: ((await machineBusySeconds()) - busy) / (rate * SECONDS) };
  } finally {
    setTracingEnabled(false);
  }
}

/** One variant: windows with the client's tracing off and on (as the variant says), alternating ABBA. */
async function measure(cluster: ActorCluster, endpoint: string, variant: Variant): Promise<void> {
  const config = variant.sampling ? { endpoint, ...variant.sampling } : undefined;
  const tracing = config ? startBenchTracing(config) : undefined;
  setTracingEnabled(false);
  const clientTraced = config !== undefined;
  try {
    const off: number[] = [];
    const on: number[] = [];
    const cpu = { off: [] as number[], on: [] as number[] };
    const errors = { off: 0, on: 0 };
    const run = async (side: 'off' | 'on'): Promise<void> => {
      const result = await window(cluster, side === 'on' && clientTraced);
      (side === 'on' ? on : off).push(result.rate);
      cpu[side].push(result.cpuPerCommand);
      errors[side] += result.errors;
    };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const side of round % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const)) await run(side);
    }
    const ratios = on.map((rate, i) => rate / (off[i] as number));
    if (process.env.BENCH_VERBOSE) console.log(`      windows: ${on.map((rate, i) => `${rate.toFixed(0)}/${(off[i] as number).toFixed(0)}`).join(' ')}`);
    const overhead = 1 - median(ratios);
    console.log(
      `    ${variant.label}: ${mean(on).toFixed(0)}/s against ${mean(off).toFixed(0)}/s untraced (means of ${ROUNDS} windows);` +
        ` costs ${percent(overhead)} (median of the rounds; they ranged ${percent(1 - Math.max(...ratios))} to ${percent(1 - Math.min(...ratios))});` +
        ` failed commands ${errors.on} and ${errors.off}  target < ${percent(TARGET_OVERHEAD)}`,
    );
    const cpuRatios = cpu.on.map((seconds, i) => seconds / (cpu.off[i] as number));
    console.log(
      `      machine CPU per command: ${(mean(cpu.on) * 1e6).toFixed(1)} µs against ${(mean(cpu.off) * 1e6).toFixed(1)} µs untraced;` +
        ` ${percent(median(cpuRatios) - 1)} more (median of the rounds)`,
    );
  } finally {
    await tracing?.shutdown();
  }
}

async function main(): Promise<void> {
  let jaeger: Jaeger | undefined;
  let endpoint = process.env.BENCH_OTLP_ENDPOINT ?? '';
  if (!endpoint) {
    const binary = jaegerBinary();
    if (!binary) throw new Error('no jaeger binary: run through `npm run bench:tracing`, which builds it (SVCTEST_JAEGER names it)');
    jaeger = await startJaeger(binary);
    endpoint = jaeger.otlpEndpoint;
  }
  // The hosts export; what they record is what the client's sampling sends them.
  const cluster = await ActorCluster.start({ label: 'bench_tracing', hosts: 2, env: hostTracingEnv({ endpoint, ...DEFAULT_SAMPLING }) });
  try {
    await createRooms(cluster.client, ROOMS);
    console.log(
      `tracing overhead on closed-loop playback/read throughput: ${ROOMS} rooms on 2 actor hosts, ${CONCURRENCY} commands in flight,` +
        ` ${ROUNDS} rounds of two ${SECONDS} s windows per variant; spans to ${jaeger ? 'Jaeger on this machine' : endpoint}`,
    );
    // Warm: the rooms active, the JIT past the first calls.
    await window(cluster, false);
    for (const variant of VARIANTS) await measure(cluster, endpoint, variant);
  } finally {
    await cluster.stop();
    await jaeger?.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
