/**
 * The public surface of observability/: what code outside observability/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { createLogger, type Logger } from './logger.js';
export { createMetrics, type HttpMetrics, type Metrics } from './metrics.js';
export { type DependencyName, type DependencyState, type ReadinessProbe } from './readiness.js';
export { SpanKind, SpanStatusCode, commandKindOf, inSpan, recordFailure, startSpan, tracingEnabled, type Span, type TraceFields, type TracedSpan } from './tracing-context.js';
export { startTracing } from './tracing.js';
export { packageVersion } from './version.js';
