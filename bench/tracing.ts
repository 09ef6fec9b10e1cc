/**
 * Tracing for a benchmark run: the hosts a benchmark starts export their spans to an OTLP/HTTP
 * endpoint (`hostTracingEnv`), and so does the benchmark's own actor client, which plays the
 * gateway and so makes the root of every trace (`startBenchTracing`). The client's sampling
 * decides; the hosts follow it (parent-based). bench:actors takes it from BENCH_OTLP_ENDPOINT
 * (e.g. a local Jaeger's http://127.0.0.1:4318; unset: nothing is traced),
 * BENCH_TRACE_SAMPLE_RATIO and BENCH_TRACE_MAX_PER_SECOND (default: the configuration's
 * defaults); bench:tracing passes its own.
 */
import { defaultConfig } from '../config/defaults.js';
import { findKey } from '../config/keys.js';
import { createLogger } from '../observability/logger.js';
import { startTracing, type Tracing } from '../observability/tracing.js';
import { packageVersion } from '../observability/version.js';

export interface BenchTracing {
  /** OTLP/HTTP base URL; empty: no tracing. */
  endpoint: string;
  sampleRatio: number;
  /** telemetry.max_traces_per_second; 0: no cap. */
  maxPerSecond: number;
}

/** What a process traces with the configuration's defaults. */
export const DEFAULT_SAMPLING = {
  sampleRatio: Number(findKey('telemetry.sample_ratio')?.defaultValue()),
  maxPerSecond: Number(findKey('telemetry.max_traces_per_second')?.defaultValue()),
};

/** What bench:actors was asked for in its environment. */
export const tracingFromEnv = (): BenchTracing => ({
  endpoint: process.env.BENCH_OTLP_ENDPOINT ?? '',
  sampleRatio: Number(process.env.BENCH_TRACE_SAMPLE_RATIO ?? DEFAULT_SAMPLING.sampleRatio),
  maxPerSecond: Number(process.env.BENCH_TRACE_MAX_PER_SECOND ?? DEFAULT_SAMPLING.maxPerSecond),
});

/** How a configuration samples, for the benchmarks' output. */
export const samplingLabel = ({ sampleRatio, maxPerSecond }: Omit<BenchTracing, 'endpoint'>): string =>
  `sampling ${sampleRatio}, ${maxPerSecond === 0 ? 'no cap' : `at most ${maxPerSecond} traces/s per process`}`;

/** The environment that makes a started replica export traces, or none. */
export function hostTracingEnv({ endpoint, sampleRatio, maxPerSecond }: BenchTracing): Record<string, string> {
  return endpoint
    ? { SVC_TELEMETRY_OTLP_ENDPOINT: endpoint, SVC_TELEMETRY_SAMPLE_RATIO: String(sampleRatio), SVC_TELEMETRY_MAX_TRACES_PER_SECOND: String(maxPerSecond) }
    : {};
}

/** Starts tracing in the benchmark's process (its clients' spans and the trace context they send). */
export function startBenchTracing(tracing: BenchTracing): Tracing {
  const { endpoint, sampleRatio, maxPerSecond } = tracing;
  if (endpoint) console.log(`tracing on: the client and the hosts export their spans to ${endpoint} (${samplingLabel(tracing)})`);
  return startTracing({
    config: { replica_id: 'bench', telemetry: { ...defaultConfig().telemetry, otlp_endpoint: endpoint, sample_ratio: sampleRatio, max_traces_per_second: maxPerSecond } },
    roles: ['bench'],
    version: packageVersion(),
    logger: createLogger({ level: 'warn', destination: 'stderr' }),
    env: {},
  });
}
