/**
 * The process's tracing setup (observability/tracing.ts) and the trace context the hops pass on
 * (tracing-context.ts), without a backend: what is started for which configuration, and the
 * `traceparent` an envelope carries. Serial: the OTel API's provider is global to the process.
 */
import { trace } from '@opentelemetry/api';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import test from 'ava';
import { pino } from 'pino';
import { defaultConfig } from '../../config/defaults.js';
import { createLogger } from '../../observability/logger.js';
import { otlpEndpointOf, startTracing, tracesUrlOf } from '../../observability/tracing.js';
import { inSpan, tracingEnabled, UNRECORDED, type SpanOptions } from '../../observability/tracing-context.js';
import { TraceSampler } from '../../observability/trace-sampler.js';

const logger = createLogger({ level: 'fatal', destination: 'stderr' });
/** One hop in its own span: what it hands on, and whether it records (read before the span ends). */
const hop = (name: string, options: SpanOptions) =>
  inSpan(name, options, (traced) => Promise.resolve({ fields: traced?.fields, recording: traced?.span.isRecording() ?? false }));
const options = (otlp_endpoint: string, env: NodeJS.ProcessEnv = {}, sample_ratio = 1, max_traces_per_second = 0) => ({
  config: { replica_id: 'replica-1', telemetry: { ...defaultConfig().telemetry, otlp_endpoint, sample_ratio, max_traces_per_second } },
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

test.serial("a span's trace context travels as traceparent fields and continues on the other side; an unrecorded trace hands nothing on; a malformed one starts afresh", async (t) => {
  const tracing = startTracing(options('http://127.0.0.1:1'));
  try {
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const sampled = { traceparent: `00-${traceId}-b7ad6b7169203331-01` };
    const next = await hop('hop', { parent: sampled });
    t.true(next.recording);
    t.regex(next.fields?.traceparent ?? '', new RegExp(`^00-${traceId}-[\\da-f]{16}-01$`));
    t.not(next.fields?.traceparent, sampled.traceparent, 'the next hop names the new span as its parent');
    const turn = await hop('turn', { parent: next.fields, continuation: true });
    t.true(turn.recording, 'a hop after the first continues a recorded trace');

    const unsampled = { traceparent: `00-${traceId}-b7ad6b7169203331-00`, tracestate: 'vendor=abc' };
    const declined = await hop('hop', { parent: unsampled });
    t.false(declined.recording, "a caller's decision not to record is kept");
    t.is(declined.fields, UNRECORDED, 'and nothing is handed on');
    t.false((await hop('send', { parent: UNRECORDED })).recording, 'below it, no hop starts a trace of its own');
    t.is((await hop('turn', { continuation: true })).fields, UNRECORDED, 'a turn whose sender sent no trace starts none');

    for (const malformed of ['garbage', `ff-${traceId}-b7ad6b7169203331-01`, `00-${'0'.repeat(32)}-b7ad6b7169203331-01`, `00-${traceId}-${'0'.repeat(16)}-01`]) {
      const fresh = await hop('hop', { parent: { traceparent: malformed } });
      t.true(fresh.recording, `${malformed} is ignored: a new trace, recorded at the ratio of 1`);
      t.regex(fresh.fields?.traceparent ?? '', /^00-[\da-f]{32}-[\da-f]{16}-01$/);
      t.notRegex(fresh.fields?.traceparent ?? '', new RegExp(traceId));
      t.false((await hop('turn', { parent: { traceparent: malformed }, continuation: true })).recording, 'a turn does not start one');
    }

    let built = 0;
    const attributes = () => ({ built: (built += 1) });
    await inSpan('hop', { parent: unsampled, attributes }, () => Promise.resolve());
    await inSpan('hop', { parent: UNRECORDED, attributes }, () => Promise.resolve());
    t.is(built, 0, 'attributes are built only for a span that records');
    await inSpan('hop', { parent: sampled, attributes }, () => Promise.resolve());
    t.is(built, 1);
  } finally {
    await tracing.shutdown();
  }
});

test.serial('telemetry.sample_ratio is the share of new traces recorded, and every hop of a recorded one records', async (t) => {
  const tracing = startTracing(options('http://127.0.0.1:1', {}, 0.5));
  try {
    const roots = await Promise.all(Array.from({ length: 2000 }, () => hop('root', {})));
    const recorded = roots.filter((root) => root.recording);
    // Binomial(2000, 0.5): 45-55 % is more than four standard deviations either side.
    t.true(recorded.length > 900 && recorded.length < 1100, `${recorded.length} of 2000 new traces recorded`);
    t.true(recorded.every((root) => root.fields?.traceparent?.endsWith('-01')), 'a recorded root hands on its context, sampled');
    t.true(roots.every((root) => root.recording || root.fields === UNRECORDED), 'an unrecorded one hands on nothing');
    const child = await hop('child', { parent: recorded[0]?.fields });
    t.true(child.recording, 'a child of a recorded trace records, whatever the ratio');
    t.is(child.fields?.traceparent?.slice(3, 35), recorded[0]?.fields?.traceparent?.slice(3, 35), 'in the same trace');
  } finally {
    await tracing.shutdown();
  }
});

test.serial("telemetry.max_traces_per_second caps the traces a process records, a client's request to record included, never a hop inside svc", async (t) => {
  const tracing = startTracing(options('http://127.0.0.1:1', {}, 1, 5));
  try {
    const started = performance.now();
    const roots = await Promise.all(Array.from({ length: 50 }, () => hop('root', {})));
    const asked = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', tracestate: 'vendor=abc' };
    const external = await Promise.all(Array.from({ length: 50 }, () => hop('request', { parent: asked, external: true })));
    // The bucket holds one second's worth (5) and refills at 5 a second while this runs.
    const allowed = 5 + Math.floor(((performance.now() - started) / 1000) * 5);
    const recorded = [...roots, ...external].filter((traced) => traced.recording).length;
    t.true(recorded >= 5 && recorded <= allowed, `${recorded} of 100 recorded, at most ${allowed} allowed`);
    const refused = external.filter((traced) => !traced.recording);
    t.true(refused.length >= 40);
    t.is(refused.at(-1)?.fields, UNRECORDED, "a refused client's trace is not recorded here or below");
    const inside = await Promise.all(Array.from({ length: 20 }, () => hop('turn', { parent: asked })));
    t.true(inside.every((traced) => traced.recording), 'a hop of a recorded trace records whatever the cap');
  } finally {
    await tracing.shutdown();
  }
});

test('the cap is a bucket of one second of traces, refilled continuously; 0 is no cap', (t) => {
  let now = 0;
  const sampler = new TraceSampler({ ratio: 1, maxPerSecond: 4, now: () => now });
  const admitted = (n: number) => Array.from({ length: n }, () => sampler.sampleNew()).filter(Boolean).length;
  t.is(admitted(10), 4, 'a burst gets a second of traces');
  now += 500;
  t.is(admitted(10), 2, 'half a second later, half of that');
  now += 10_000;
  t.is(admitted(10), 4, 'an idle spell does not bank more than a second');
  const uncapped = new TraceSampler({ ratio: 1, maxPerSecond: 0, now: () => now });
  t.is(Array.from({ length: 1000 }, () => uncapped.sampleNew()).filter(Boolean).length, 1000);
  const none = new TraceSampler({ ratio: 0, maxPerSecond: 0 });
  t.false(Array.from({ length: 1000 }, () => none.sampleNew()).some(Boolean), 'a ratio of 0 starts no recorded trace');
  t.true(none.admit(), "a client's request still counts only against the cap");
});

test('the OTLP/HTTP traces URL is derived from a base endpoint as the OTel spec does', (t) => {
  t.is(tracesUrlOf('http://collector:4318'), 'http://collector:4318/v1/traces');
  t.is(tracesUrlOf('http://collector:4318/'), 'http://collector:4318/v1/traces');
  t.is(tracesUrlOf('https://otel.example.com/ingest'), 'https://otel.example.com/ingest/v1/traces');
  t.is(tracesUrlOf('http://collector:4318/v1/traces'), 'http://collector:4318/v1/traces');
  t.is(otlpEndpointOf({ telemetry: { ...defaultConfig().telemetry, otlp_endpoint: 'http://a:4318', sample_ratio: 1, max_traces_per_second: 0 } }, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://b:4318' }), 'http://a:4318');
});

/** A collector on loopback: what it was sent, and whether it answers at all. */
async function collector(answers: boolean) {
  const posts: string[] = [];
  const server = createServer((request, response) => {
    posts.push(request.url ?? '');
    request.resume();
    if (answers) request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    posts,
    close: () => new Promise<void>((resolve) => server.close(() => resolve()).closeAllConnections()),
  };
}

/** A logger whose warnings the test reads. */
function recordingLogger() {
  const warnings: string[] = [];
  const stream = { write: (line: string) => warnings.push((JSON.parse(line) as { msg: string }).msg) };
  return { logger: pino({ level: 'warn' }, stream), warnings };
}

test.serial('shutdown hands the last spans to the collector; one that does not answer holds a stop for no longer than the flush bound, with a warning', async (t) => {
  const quick = await collector(true);
  const answered = recordingLogger();
  let tracing = startTracing({ ...options(quick.endpoint), logger: answered.logger });
  await hop('root', {});
  await tracing.shutdown();
  t.deepEqual(quick.posts, ['/v1/traces'], 'the buffered span went out at shutdown');
  t.deepEqual(answered.warnings, []);
  await quick.close();

  const silent = await collector(false);
  const unanswered = recordingLogger();
  tracing = startTracing({ ...options(silent.endpoint), logger: unanswered.logger, shutdownFlushMs: 300 });
  await hop('root', {});
  await tracing.shutdown();
  t.deepEqual(silent.posts, ['/v1/traces'], 'the export was tried');
  t.deepEqual(unanswered.warnings, ['the trace collector did not take the last spans in time; stopping without them']);
  t.false(tracingEnabled(), 'and tracing is off, so a later start in this process registers afresh');
  await silent.close();
});
