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
  INVALID_SPAN_CONTEXT,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';
import { isAppError } from '../errors/index.js';
import { TraceSampler } from './trace-sampler.js';

export { SpanKind, SpanStatusCode };
export type { Attributes, Context, Span };

let enabled = false;
/** Decides for new traces, and for those a client asks to record; any other hop follows its parent. */
let sampler = new TraceSampler({ ratio: 1, maxPerSecond: 0 });

/** Called by startTracing (with the configured sampling) and its shutdown; bench:tracing toggles its client with it. */
export function setTracingEnabled(on: boolean, sampling: TraceSampler = sampler): void {
  enabled = on;
  sampler = sampling;
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
const ZERO_TRACE_ID = '0'.repeat(32);
const ZERO_SPAN_ID = '0'.repeat(16);

/**
 * A traceparent this process can hand on as it came: level 1 syntax, not the forbidden version
 * ff, and ids that are not all zeros (W3C: a receiver ignores any other).
 */
function validTraceparent(value: string): boolean {
  return TRACEPARENT_PATTERN.test(value) && !value.startsWith('ff') && value.slice(3, 35) !== ZERO_TRACE_ID && value.slice(36, 52) !== ZERO_SPAN_ID;
}

/** The sampled bit of a valid traceparent's flags (its last hex digit's low bit). */
const sampledFlag = (traceparent: string): boolean => (Number.parseInt(traceparent.slice(-1), 16) & 1) === 1;

/**
 * The fields of a trace nobody records. They name nothing, so nothing travels with the work (an
 * envelope spreads no fields and its host starts no trace), and a hop in this process handed
 * them knows its caller has decided: it starts no trace of its own. Compared by identity.
 */
export const UNRECORDED: TraceFields = Object.freeze({});
/** Every span of a trace nobody records: setting attributes on it or ending it does nothing. */
const NOT_RECORDED: TracedSpan = Object.freeze({ span: trace.wrapSpanContext(INVALID_SPAN_CONTEXT), fields: UNRECORDED });

function tracer() {
  return trace.getTracer('svc');
}

export interface SpanOptions {
  kind?: SpanKind;
  /** Built only for a span that records (a function, so an unrecorded hop does not pay for them). */
  attributes?: () => Attributes;
  /**
   * What names the trace this span continues: a span's fields (UNRECORDED included), a message
   * with them, request headers; none: a new trace.
   */
  parent?: object | undefined;
  /**
   * The parent came from outside svc (a client's header, metadata or frame): its sampled flag
   * is a request, honoured within telemetry.max_traces_per_second, so a client cannot make
   * every request it sends cost a recorded trace.
   */
  external?: boolean;
  /**
   * A hop after the first inside svc (a command's turn on its host): it records only within a
   * recorded trace its parent names and never starts one, so a command whose sender did not
   * record costs its host nothing.
   */
  continuation?: boolean;
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
export function inSpan<T>(name: string, options: SpanOptions, fn: (traced: TracedSpan | undefined) => Promise<T>): Promise<T> {
  const traced = startSpan(name, options);
  return traced?.span.isRecording() ? recording(traced, fn) : fn(traced);
}

async function recording<T>(traced: TracedSpan, fn: (traced: TracedSpan) => Promise<T>): Promise<T> {
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
 *
 * Most traces are not recorded (telemetry.sample_ratio, telemetry.max_traces_per_second), and
 * their hops must cost next to nothing, so only a recorded trace reaches the SDK: a trace that
 * is not recorded is decided once, where it enters svc, and is UNRECORDED from there on. A
 * missing or malformed `traceparent` starts a new trace (W3C: a receiver ignores what it cannot
 * parse), so a bad field never fails the work it rides on.
 */
export function startSpan(name: string, options: SpanOptions): TracedSpan | undefined {
  if (!enabled) return undefined;
  const carrier = options.parent as TraceFields | undefined;
  if (carrier === UNRECORDED) return NOT_RECORDED;
  const traceparent = carrier?.traceparent;
  if (typeof traceparent === 'string' && validTraceparent(traceparent)) {
    // A caller that does not record, or a client asking to record over the cap: nothing records
    // here or below (parent-based sampling), and svc's own hops need none of its ids.
    if (!sampledFlag(traceparent) || (options.external && !sampler.admit())) return NOT_RECORDED;
    return recordedSpan(name, options, propagation.extract(ROOT_CONTEXT, carrier));
  }
  if (options.continuation || !sampler.sampleNew()) return NOT_RECORDED;
  return recordedSpan(name, options, ROOT_CONTEXT);
}

function recordedSpan(name: string, options: SpanOptions, parent: Context): TracedSpan {
  const span = tracer().startSpan(name, { kind: options.kind ?? SpanKind.INTERNAL, ...(options.attributes ? { attributes: options.attributes() } : {}) }, parent);
  const fields: TraceFields = {};
  propagation.inject(trace.setSpan(parent, span), fields);
  return { span, fields };
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
