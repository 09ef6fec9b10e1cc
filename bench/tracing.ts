/**
 * Tracing for a benchmark run, to measure its overhead: with BENCH_OTLP_ENDPOINT set (an
 * OTLP/HTTP base URL such as a local Jaeger's http://127.0.0.1:4318), the hosts a benchmark
 * starts export their spans there (`hostTracingEnv`), and so does the benchmark's own actor
 * client, as a gateway would (`startBenchTracing`). BENCH_TRACE_SAMPLE_RATIO (default 1) is the
 * client's sampling ratio, which the hosts follow (parent-based). Unset: nothing is traced.
 */
import { createLogger } from '../observability/logger.js';
import { startTracing, type Tracing } from '../observability/tracing.js';
import { packageVersion } from '../server/version.js';

const endpoint = process.env.BENCH_OTLP_ENDPOINT ?? '';
const sampleRatio = Number(process.env.BENCH_TRACE_SAMPLE_RATIO ?? 1);

/** The environment that makes a started replica export traces, or none. */
export function hostTracingEnv(): Record<string, string> {
  return endpoint ? { SVC_TELEMETRY_OTLP_ENDPOINT: endpoint, SVC_TELEMETRY_SAMPLE_RATIO: String(sampleRatio) } : {};
}

/** Starts tracing in the benchmark's process (its clients' spans and the trace context they send). */
export function startBenchTracing(): Tracing {
  if (endpoint) console.log(`tracing on: every process exports its spans to ${endpoint} (sampling ${sampleRatio})`);
  return startTracing({
    config: { replica_id: 'bench', telemetry: { otlp_endpoint: endpoint, sample_ratio: sampleRatio } },
    roles: ['bench'],
    version: packageVersion(),
    logger: createLogger({ level: 'warn', destination: 'stderr' }),
    env: {},
  });
}
