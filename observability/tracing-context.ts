/**
 * What the traced hops share: one flag that says whether this process traces at all (set by
 * tracing.ts), spans that end with their work, and the W3C trace context as the optional
 * `traceparent`/`tracestate` fields of an object (an actor envelope, a WebSocket frame) or the
 * headers of a request. Every helper returns at once when tracing is off, so an untraced
 * process pays one function call per hop and no allocation.
 *
 * The context is passed explicitly, as those fields, from each span to the work it starts (a
 * span's `fields`): no context manager is registered, because AsyncLocalStorage's promise hooks
 * on Node 20 cost an actor host a third of its throughput whether anything was sampled or not.
 */
import {
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { isAppError } from '../errors/app-error.js';

export { SpanKind, SpanStatusCode };
export type { Attributes, Context, Span };

let enabled = false;

/** Called by startTracing and its shutdown only. */
export function setTracingEnabled(on: boolean): void {
  enabled = on;
}

/** True while this process records spans. */
export function tracingEnabled(): boolean {
  return enabled;
}

/** The W3C trace context as it travels in envelopes and frames (header names as field names). */
export interface TraceFields {
  traceparent?: string;
  tracestate?: string;
}

/** version-traceid-parentid-flags, lower-case hex (W3C Trace Context level 1). */
export const TRACEPARENT_PATTERN = /^[\da-f]{2}-[\da-f]{32}-[\da-f]{16}-[\da-f]{2}$/;

function tracer() {
  return trace.getTracer('svc');
}

/** The trace context `ctx` names as fields to spread into an outgoing message (empty for none). */
function fieldsOf(ctx: Context): TraceFields {
  const fields: TraceFields = {};
  propagation.inject(ctx, fields);
  return fields;
}

/**
 * The context a message's trace fields (or a request's headers) name, for a span that
 * continues its trace. A missing or malformed `traceparent` gives the root context (W3C: a
 * receiver ignores what it cannot parse), so a bad field never fails the work it rides on.
 */
function contextOf(carrier: object | undefined): Context {
  if (!enabled || carrier === undefined) return ROOT_CONTEXT;
  return propagation.extract(ROOT_CONTEXT, carrier);
}

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** What names the trace this span continues: a span's fields, a message with them, request headers; none: a new trace. */
  parent?: object | undefined;
}

/** A started span and its context as fields, for the work it starts. */
export interface TracedSpan {
  span: Span;
  fields: TraceFields;
}

/**
 * Runs `fn` in a new span that ends when `fn` settles; a thrown error marks it failed (an
 * AppError below 500 is the caller's mistake, recorded by its code only). `fn` gets the span
 * and its fields to hand on, or nothing when tracing is off.
 */
export async function inSpan<T>(name: string, options: SpanOptions, fn: (traced: TracedSpan | undefined) => Promise<T>): Promise<T> {
  const traced = startSpan(name, options);
  if (!traced) return fn(undefined);
  try {
    return await fn(traced);
  } catch (err) {
    recordFailure(traced.span, err);
    throw err;
  } finally {
    traced.span.end();
  }
}

/**
 * Starts a span the caller ends (work that outlives one function, such as an HTTP request
 * ended by its response); undefined when tracing is off.
 */
export function startSpan(name: string, options: SpanOptions): TracedSpan | undefined {
  if (!enabled) return undefined;
  const parent = contextOf(options.parent);
  const caller = trace.getSpanContext(parent);
  if (caller && (caller.traceFlags & TraceFlags.SAMPLED) === 0) {
    // A trace its root decided not to record: with parent-based sampling nothing below records
    // either, so the hop hands the context on as it came instead of making a span nobody sees.
    return { span: trace.wrapSpanContext(caller), fields: fieldsOf(parent) };
  }
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes } : {}) }, parent);
  return { span, fields: fieldsOf(trace.setSpan(parent, span)) };
}

/** Marks a span failed by `err`: its error code always, the error status for server faults. */
export function recordFailure(span: Span, err: unknown): void {
  if (isAppError(err)) {
    span.setAttribute('svc.error.code', err.code);
    if (err.status < 500) return;
    span.setStatus({ code: SpanStatusCode.ERROR, message: err.message });
    return;
  }
  span.recordException(err instanceof Error ? err : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
}

/** A command's `kind` (the room's commands have one) for span names and attributes; '' when it has none. */
export function commandKindOf(command: unknown): string {
  const kind = typeof command === 'object' && command !== null ? (command as { kind?: unknown }).kind : undefined;
  return typeof kind === 'string' ? kind : '';
}
