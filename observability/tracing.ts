/**
 * OpenTelemetry tracing for one process: a tracer provider exporting by OTLP/HTTP (JSON) with a
 * batch span processor when an endpoint is configured, and nothing at all when not. Without a
 * provider the OTel API stays its own no-op, and the call sites (tracing-context.ts) skip even
 * that behind one boolean, so an untraced process pays a function call per hop.
 *
 * What is traced and the span names: docs/2026-11-26-tracing.md.
 */
import { context, diag, propagation, trace, DiagLogLevel } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import type { StartupConfig } from '../config/index.js';
import type { Logger } from './logger.js';
import { TraceSampler } from './trace-sampler.js';
import { setTracingEnabled } from './tracing-context.js';

export interface TracingOptions {
  config: Pick<StartupConfig, 'telemetry' | 'replica_id'>;
  /** How long shutdown waits for the last export (SHUTDOWN_FLUSH_MS). */
  shutdownFlushMs?: number;
  /** The roles this process serves (`gateway,actors`), a resource attribute. */
  roles: readonly string[];
  version: string;
  logger: Logger;
  /** Where the standard OTEL_* variables are read (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_SERVICE_NAME). */
  env?: NodeJS.ProcessEnv;
}

export interface Tracing {
  /** True when spans are recorded and exported. */
  readonly enabled: boolean;
  /** Exports what is buffered and unregisters the provider; idempotent. */
  shutdown(): Promise<void>;
}

const OFF: Tracing = { enabled: false, shutdown: () => Promise.resolve() };

/**
 * How long a stopping process waits for the collector to take its last spans. The OTLP exporter
 * retries an unreachable collector for up to its 10 s timeout, and a draining `svc serve` would
 * wait that out before it exits; traces are not worth holding a stop for.
 */
export const SHUTDOWN_FLUSH_MS = 2_000;

/** The provider of this process: the OTel API has one global slot, so a second start shares nothing. */
let running: NodeTracerProvider | undefined;

/** Where spans go: `telemetry.otlp_endpoint`, else the standard OTEL_EXPORTER_OTLP_ENDPOINT; empty: no tracing. */
export function otlpEndpointOf(config: Pick<StartupConfig, 'telemetry'>, env: NodeJS.ProcessEnv = process.env): string {
  return config.telemetry.otlp_endpoint || env.OTEL_EXPORTER_OTLP_ENDPOINT || '';
}

/** The OTLP/HTTP traces URL of a base endpoint (`http://collector:4318` → `…/v1/traces`), as the OTel spec derives it. */
export function tracesUrlOf(endpoint: string): string {
  const url = new URL(endpoint);
  if (url.pathname.endsWith('/v1/traces')) return url.toString();
  url.pathname = `${url.pathname.replace(/(?<!\/)\/+$/, '')}/v1/traces`;
  return url.toString();
}

/**
 * Starts tracing for this process when an endpoint is configured; otherwise constructs
 * nothing and returns a handle whose shutdown does nothing.
 */
export function startTracing(options: TracingOptions): Tracing {
  const env = options.env ?? process.env;
  const endpoint = otlpEndpointOf(options.config, env);
  if (endpoint === '') return OFF;
  if (running) {
    // Tests run several services in one process; the first one's provider serves them all.
    options.logger.warn('tracing is already running in this process; this service shares its provider');
    return OFF;
  }
  const { logger } = options;
  diag.setLogger(
    {
      error: (message, ...args) => logger.warn({ args }, `OpenTelemetry: ${message}`),
      warn: (message, ...args) => logger.warn({ args }, `OpenTelemetry: ${message}`),
      info: () => undefined,
      debug: () => undefined,
      verbose: () => undefined,
    },
    DiagLogLevel.WARN,
  );
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'svc',
      'service.version': options.version,
      'service.instance.id': options.config.replica_id,
      'svc.roles': options.roles.join(','),
    }),
    // A parent's decision wins, so a trace is either whole or absent across the hops. A new
    // trace reaches the SDK only once tracing-context.ts has drawn it for recording
    // (telemetry.sample_ratio, max_traces_per_second): the traces nobody records then cost no span at all.
    sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrlOf(endpoint) }))],
  });
  // No context manager: Node 20's AsyncLocalStorage put a promise hook on every promise of the
  // process and cost a third of an actor host's throughput even with nothing sampled. The trace
  // context travels explicitly instead (tracing-context.ts).
  provider.register({ contextManager: null });
  running = provider;
  const { sample_ratio: ratio, max_traces_per_second: maxPerSecond } = options.config.telemetry;
  setTracingEnabled(true, new TraceSampler({ ratio, maxPerSecond }));
  logger.info({ endpoint: tracesUrlOf(endpoint), sampleRatio: ratio, maxTracesPerSecond: maxPerSecond }, 'exporting traces by OTLP/HTTP');
  let stopped: Promise<void> | undefined;
  return {
    enabled: true,
    shutdown: () =>
      (stopped ??= (async () => {
        setTracingEnabled(false);
        const flushMs = options.shutdownFlushMs ?? SHUTDOWN_FLUSH_MS;
        let timer: NodeJS.Timeout | undefined;
        try {
          const flushed = await Promise.race([
            provider.shutdown().then(() => true),
            new Promise<false>((resolve) => (timer = setTimeout(resolve, flushMs, false))),
          ]);
          // The export goes on in the background; a stopping process exits without it.
          if (!flushed) logger.warn({ endpoint: tracesUrlOf(endpoint), afterMs: flushMs }, 'the trace collector did not take the last spans in time; stopping without them');
        } catch (err) {
          logger.warn({ err }, 'flushing traces at shutdown failed');
        } finally {
          clearTimeout(timer);
          trace.disable();
          context.disable();
          propagation.disable();
          diag.disable();
          running = undefined;
        }
      })()),
  };
}
