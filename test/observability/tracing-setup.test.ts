/**
 * The process's tracing setup (observability/tracing.ts) and the trace context the hops pass on
 * (tracing-context.ts), without a backend: what is started for which configuration, and the
 * `traceparent` an envelope carries. Serial: the OTel API's provider is global to the process.
 */
import { trace } from '@opentelemetry/api';
import test from 'ava';
import { createLogger } from '../../observability/logger.js';
import { otlpEndpointOf, startTracing, tracesUrlOf } from '../../observability/tracing.js';
import { inSpan, tracingEnabled } from '../../observability/tracing-context.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
const options = (otlp_endpoint: string, env: NodeJS.ProcessEnv = {}, sample_ratio = 1) => ({
  config: { replica_id: 'replica-1', telemetry: { otlp_endpoint, sample_ratio } },
  roles: ['gateway'],
  version: '0.0.0-test',
  logger,
  env,
});

test.serial('no endpoint, no OTEL_EXPORTER_OTLP_ENDPOINT: nothing is started and the API stays a no-op', async (t) => {
  const tracing = startTracing(options(''));
  t.false(tracing.enabled);
  t.false(tracingEnabled());
  t.false(trace.getTracer('probe').startSpan('probe').isRecording());
  t.is(await inSpan('untraced', {}, (traced) => Promise.resolve(traced)), undefined);
  await tracing.shutdown();
});

test.serial('the standard OTEL_EXPORTER_OTLP_ENDPOINT starts tracing when the key is empty; shutdown restores the no-op', async (t) => {
  const tracing = startTracing(options('', { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:1' }));
  t.true(tracing.enabled);
  t.true(tracingEnabled());
  await tracing.shutdown();
  t.false(tracingEnabled());
  t.false(trace.getTracer('probe').startSpan('probe').isRecording());
});

test.serial("a span's trace context travels as traceparent fields and continues on the other side; an unrecorded trace passes through; a malformed one starts afresh", async (t) => {
  // A ratio of 0 for new traces: only a caller's sampled flag makes anything record.
  const tracing = startTracing(options('http://127.0.0.1:1', {}, 0));
  try {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const sampled = { traceparent: `00-${traceId}-b7ad6b7169203331-01` };
    const fields = await inSpan('hop', { parent: sampled }, (traced) => Promise.resolve(traced?.fields ?? {}));
    t.regex(fields.traceparent ?? '', new RegExp(`^00-${traceId}-[\\da-f]{16}-01$`));
    t.not(fields.traceparent, sampled.traceparent, 'the next hop names the new span as its parent');
    const unrecorded = { traceparent: `00-${traceId}-b7ad6b7169203331-00` };
    const passed = await inSpan('hop', { parent: unrecorded }, (traced) => Promise.resolve(traced?.fields ?? {}));
    t.is(passed.traceparent, unrecorded.traceparent, 'a trace nobody records is handed on as it came');
    const fresh = await inSpan('hop', { parent: { traceparent: 'garbage' } }, (traced) => Promise.resolve(traced?.fields ?? {}));
    t.notRegex(fresh.traceparent ?? '', new RegExp(traceId));
    t.regex(fresh.traceparent ?? '', /^00-[\da-f]{32}-[\da-f]{16}-00$/);
  } finally {
    await tracing.shutdown();
  }
});

test('the OTLP/HTTP traces URL is derived from a base endpoint as the OTel spec does', (t) => {
  t.is(tracesUrlOf('http://collector:4318'), 'http://collector:4318/v1/traces');
  t.is(tracesUrlOf('http://collector:4318/'), 'http://collector:4318/v1/traces');
  t.is(tracesUrlOf('https://otel.example.com/ingest'), 'https://otel.example.com/ingest/v1/traces');
  t.is(tracesUrlOf('http://collector:4318/v1/traces'), 'http://collector:4318/v1/traces');
  t.is(otlpEndpointOf({ telemetry: { otlp_endpoint: 'http://a:4318', sample_ratio: 1 } }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:4318' }), 'http://a:4318');
});
