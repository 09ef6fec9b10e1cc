/**
 * The public surface of observability/: what code outside observability/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 *
 * The logger, the version and the tracing context are what most areas use, the CLI and the
 * PostgreSQL pool included. Tracing's SDK and exporter and prom-client are only for a running
 * service, so `startTracing` and `createMetrics` load their modules when called: through this
 * entry, every CLI command loaded them and started about half a second later.
 */
import type { Metrics } from './metrics.js';
import type { Tracing, TracingOptions } from './tracing.js';

export { createLogger, type Logger } from './logger.js';
export type { HttpMetrics, Metrics } from './metrics.js';
export { type DependencyName, type DependencyState, type ReadinessProbe } from './readiness.js';
export { SpanKind, SpanStatusCode, commandKindOf, inSpan, recordFailure, startSpan, tracingEnabled, type Span, type TraceFields, type TracedSpan } from './tracing-context.js';
export type { Tracing, TracingOptions } from './tracing.js';
export { packageVersion } from './version.js';

/** This process's tracing (tracing.ts), with the OpenTelemetry SDK loaded on this call. */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const tracing = await import('./tracing.js');
  return tracing.startTracing(options);
}

/** This process's metrics registry (metrics.ts), with prom-client loaded on this call. */
export async function createMetrics(): Promise<Metrics> {
  const metrics = await import('./metrics.js');
  return metrics.createMetrics();
}
