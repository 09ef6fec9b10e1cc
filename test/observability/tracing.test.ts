/**
 * Traces across every hop (docs/2026-11-26-tracing.md), against a real tracing backend: Jaeger
 * v2 built from its Go module (infra/install.sh; npm test names it in SVCTEST_JAEGER, else a
 * `jaeger` on PATH is used). A gateway bed with an actor host exports to it; one chat message
 * sent over WebSocket and one over HTTP, each with a `traceparent` the test chose, are found
 * in Jaeger by their trace ids with a span of every hop in parent order: the gateway (frame or
 * request; a third message goes over gRPC with `traceparent` metadata), the actor client's send, the actor's turn on the host, the PostgreSQL write and the
 * event's fan-out to the sockets. Without an endpoint, nothing is traced or exported.
 */
import { randomBytes } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import test, { type ExecutionContext } from 'ava';
import { tracingEnabled } from '../../observability/tracing-context.js';
import { waitFor } from '../fixtures/deadline.js';
import { jaegerBinary, startJaeger, type Jaeger, type JaegerSpan, type JaegerTrace } from '../fixtures/jaeger.js';
import { startGatewayBed, type GatewayBed } from '../gateways/bed.js';
import { connectGrpc } from '../../gateways/grpc/client.js';
import { createRoom, open, roomsOf, uniqueIp } from '../gateways/ws/fixtures.js';
import type { RealtimeClient } from '../harness/ws-client.js';

let jaeger: Jaeger | undefined;
const closers: Array<() => Promise<unknown>> = [];

test.before(async () => {
  const binary = jaegerBinary();
  if (!binary) throw new Error('jaeger not found (SVCTEST_JAEGER, or on PATH): run the tests with npm test (infra/install.sh builds it)');
  jaeger = await startJaeger(binary);
});
test.after.always(async () => {
  for (const close of closers.reverse()) await close().catch(() => undefined);
  await jaeger?.stop();
});

/** A parent span of the test's own: the ids a client would send in `traceparent`. */
function clientSpan(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

interface World {
  bed: GatewayBed;
  roomId: string;
  sender: RealtimeClient;
  watcher: RealtimeClient;
  senderToken: string;
}

async function world(label: string, env: Record<string, string> = {}): Promise<World> {
  const bed = await startGatewayBed(label, { env });
  closers.push(() => bed.close());
  const rooms = await roomsOf(bed);
  closers.push(() => rooms.close());
  const [owner, member] = await Promise.all([bed.signUp('owner'), bed.signUp('member')]);
  const room = await createRoom(rooms, owner, [member]);
  const watcher = await open(bed, room.id, member);
  closers.push(() => watcher.close());
  const sender = await open(bed, room.id, owner);
  closers.push(() => sender.close());
  return { bed, roomId: room.id, sender, watcher, senderToken: owner.token };
}

/** The one span named `name` in the trace, failing the test with the names there are. */
function spanNamed(t: ExecutionContext, found: JaegerTrace, name: string): JaegerSpan {
  const spans = found.spans.filter((span) => span.operationName === name);
  t.is(spans.length, 1, `one span "${name}" among ${found.spans.map((span) => span.operationName).join(', ')}`);
  return spans[0]!;
}

function parentOf(span: JaegerSpan): string | undefined {
  return span.references.find((ref) => ref.refType === 'CHILD_OF')?.spanID;
}

function tag(span: JaegerSpan, key: string): unknown {
  return span.tags.find((entry) => entry.key === key)?.value;
}

/** The trace once Jaeger holds every span named, within a deadline (spans are exported in batches). */
function traceWith(traceId: string, names: string[]): Promise<JaegerTrace> {
  return waitFor(`trace ${traceId} in Jaeger with spans ${names.join(', ')}`, async () => {
    const found = await jaeger!.trace(traceId);
    return found && names.every((name) => found.spans.some((span) => span.operationName === name)) ? found : undefined;
  }, 30_000, 250);
}

/** The hops after the gateway's span, each the child of the one before (the fan-out: of the turn). */
function assertActorHops(t: ExecutionContext, found: JaegerTrace, gateway: JaegerSpan, roomId: string, seq: number): void {
  const send = spanNamed(t, found, 'actor.send room');
  t.is(parentOf(send), gateway.spanID, 'the actor client send is a child of the gateway span');
  t.is(tag(send, 'svc.actor.id'), roomId);
  t.is(tag(send, 'svc.command.kind'), 'chat.send');
  const turn = spanNamed(t, found, 'actor.turn room');
  t.is(parentOf(turn), send.spanID, 'the turn on the host continues the envelope trace context');
  const write = spanNamed(t, found, 'pg fenced batch chat_messages');
  t.is(parentOf(write), turn.spanID, 'the PostgreSQL write is a child of the turn');
  t.is(tag(write, 'db.system.name'), 'postgresql');
  const fanout = spanNamed(t, found, 'room.fanout');
  t.is(parentOf(fanout), turn.spanID, 'the fan-out follows the event envelope trace context');
  t.is(tag(fanout, 'svc.event.seq'), seq);
  t.true((tag(fanout, 'svc.listeners') as number) >= 2, 'both sockets of the room were delivered to');
}

test.serial('without an endpoint nothing is traced: no provider or exporter is made and the backend receives nothing', async (t) => {
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const { sender, watcher } = await world('trace_off');
  t.false(tracingEnabled());
  // The OTel API still has its own no-op provider: no SDK provider, so no exporter, exists.
  const probe = trace.getTracer('probe').startSpan('probe');
  t.false(probe.isRecording());
  probe.end();
  // A client's traceparent is accepted and the command runs as ever.
  const { seq } = await sender.command({ kind: 'chat.send', text: 'not traced' }, { traceparent: clientSpan().traceparent });
  await watcher.waitForEvent((event) => event.seq === seq);
  t.deepEqual(await jaeger!.services(), []);
  for (const close of closers.splice(0).reverse()) await close();
});

test.serial('a chat message over WebSocket, one over HTTP and one over gRPC: each trace in Jaeger has the gateway, actor send, turn, PostgreSQL write and fan-out spans', async (t) => {
  const { bed, roomId, sender, watcher, senderToken } = await world('trace_on', { SVC_TELEMETRY_OTLP_ENDPOINT: jaeger!.otlpEndpoint });
  t.true(tracingEnabled());

  const overWs = clientSpan();
  const wsReply = await sender.command({ kind: 'chat.send', text: 'traced over a socket' }, { traceparent: overWs.traceparent });
  await watcher.waitForEvent((event) => event.seq === wsReply.seq);

  const overHttp = clientSpan();
  const answer = await bed.call<{ seq: number }>('POST', `/api/rooms/${roomId}/chat`, { text: 'traced over HTTP' }, senderToken, { traceparent: overHttp.traceparent });
  t.is(answer.status, 201);
  await watcher.waitForEvent((event) => event.seq === answer.body.seq);

  const overGrpc = clientSpan();
  const grpcClient = connectGrpc(bed.grpcAddress);
  closers.push(() => Promise.resolve(grpcClient.close()));
  const asSender = grpcClient.as({ token: senderToken, forwardedFor: uniqueIp(), metadata: { traceparent: overGrpc.traceparent } });
  await asSender.chat.Send({ roomId, text: 'traced over gRPC' });
  const grpcEvent = await watcher.waitForEvent((event) => JSON.stringify(event.event).includes('traced over gRPC'));

  const hops = ['actor.send room', 'actor.turn room', 'pg fenced batch chat_messages', 'room.fanout'];
  const wsTrace = await traceWith(overWs.traceId, ['ws chat.send', ...hops]);
  const frame = spanNamed(t, wsTrace, 'ws chat.send');
  t.is(parentOf(frame), overWs.spanId, "the frame's span continues the client's traceparent");
  t.is(tag(frame, 'svc.room.id'), roomId);
  assertActorHops(t, wsTrace, frame, roomId, wsReply.seq);

  const httpTrace = await traceWith(overHttp.traceId, ['POST /api/rooms/:roomId/chat', ...hops]);
  const request = spanNamed(t, httpTrace, 'POST /api/rooms/:roomId/chat');
  t.is(parentOf(request), overHttp.spanId, "the request's span continues the traceparent header");
  t.is(tag(request, 'http.response.status_code'), 201);
  assertActorHops(t, httpTrace, request, roomId, answer.body.seq);

  const grpcTrace = await traceWith(overGrpc.traceId, ['svc.v1.ChatService/Send', ...hops]);
  const call = spanNamed(t, grpcTrace, 'svc.v1.ChatService/Send');
  t.is(parentOf(call), overGrpc.spanId, "the call's span continues the traceparent metadata");
  t.is(tag(call, 'rpc.system'), 'grpc');
  assertActorHops(t, grpcTrace, call, roomId, grpcEvent.seq);

  // Every span comes from this process, named as the service with its replica id.
  const processes = Object.values(wsTrace.processes);
  t.true(processes.length > 0 && processes.every((process) => process.serviceName === 'svc'));
  t.true(processes.some((process) => process.tags.some((entry) => entry.key === 'service.instance.id' && entry.value === bed.config.replica_id)));
});
