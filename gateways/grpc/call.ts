/**
 * What every gRPC handler shares, like the HTTP middleware stack: a request id (the client's
 * `x-request-id` when sane, sent back as `svc-request-id`), the bearer caller resolved once
 * (`gateways/bearer.ts`), the client address for rate limits, errors mapped by `status.ts`,
 * and one access-log line per call. Handlers only translate and call domain code.
 */
import { randomUUID } from 'node:crypto';
import * as grpc from '@grpc/grpc-js';
import type { Accounts } from '../../accounts/index.js';
import type { Caller } from '../../accounts/index.js';
import { AppError } from '../../errors/index.js';
import type { ClientAddresses } from '../../net/index.js';
import type { Logger } from '../../observability/index.js';
import { inSpan, recordFailure, SpanKind, tracingEnabled, type TracedSpan, type TraceFields } from '../../observability/index.js';
import { callerFromBearer } from '../bearer.js';
import { isSaneRequestId } from '../request-id.js';
import { unstorableTextIn } from '../../contracts/text.js';
import { REQUEST_ID_KEY, serviceErrorOf } from './status.js';

/** A client's idempotency key for room commands: a resend with the same id runs once. */
export const COMMAND_ID_KEY = 'svc-command-id';

export interface CallContext {
  /** `/svc.v1.RoomService/GetRoom`. */
  method: string;
  requestId: string;
  log: Logger;
  /** For rate limits and the session list. */
  client: { ip: string; userAgent?: string };
  caller: Caller | undefined;
  commandId?: string;
  /** What is left of the client's deadline, when it set one. */
  timeoutMs?: number;
  /** The call's span (its fields), which the room commands it sends continue. */
  trace?: TraceFields;
}

export interface CallerContext extends CallContext {
  caller: Caller;
}

export interface GrpcCallDeps {
  logger: Logger;
  accounts: Pick<Accounts, 'tokens' | 'sessions'>;
  /** The client address from the peer and `x-forwarded-for` (set by the ingress), as for HTTP. */
  addresses: ClientAddresses;
}

type AnyCall = grpc.ServerUnaryCall<unknown, unknown> | grpc.ServerWritableStream<unknown, unknown>;

const SANE_COMMAND_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export class GrpcCalls {
  constructor(private readonly deps: GrpcCallDeps) {}

  /** A unary call anyone may make (sign-in); the caller is resolved when a token is sent. */
  publicUnary<Req, Res>(handler: (request: Req, ctx: CallContext) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
    return (call, callback) => {
      void traced(call, (span) => this.runUnary(call, callback, (ctx) => handler(call.request, ctx), false, span));
    };
  }

  /** A unary call that needs a signed-in user or guest (`authorization: Bearer <token>`). */
  unary<Req, Res>(handler: (request: Req, ctx: CallerContext) => Promise<Res>): grpc.handleUnaryCall<Req, Res> {
    return (call, callback) => {
      void traced(call, (span) => this.runUnary(call, callback, (ctx) => handler(call.request, ctx as CallerContext), true, span));
    };
  }

  /**
   * A server-streaming call that needs a caller. `handler` writes to the stream and resolves
   * when the stream is over (the client cancelled, or the handler ended it); a rejection ends
   * the call with the error's status.
   */
  serverStream<Req, Res>(handler: (call: grpc.ServerWritableStream<Req, Res>, ctx: CallerContext) => Promise<void>): grpc.handleServerStreamingCall<Req, Res> {
    return (call) => {
      void traced(call, (span) => this.runStream(call, handler, span));
    };
  }

  private async runUnary<Req, Res>(
    call: grpc.ServerUnaryCall<Req, Res>,
    callback: grpc.sendUnaryData<Res>,
    run: (ctx: CallContext) => Promise<Res>,
    needsCaller: boolean,
    traced: TracedSpan | undefined,
  ): Promise<void> {
    const started = performance.now();
    const ctx = this.context(call, traced);
    call.sendMetadata(requestIdMetadata(ctx.requestId));
    try {
      ctx.caller = await this.resolveCaller(call.metadata, ctx, needsCaller);
      refuseUnstorableText(call.request);
      const response = await run(ctx);
      this.logDone(ctx, started, undefined, call.cancelled);
      callback(null, response);
    } catch (err) {
      if (traced) recordFailure(traced.span, err);
      this.logDone(ctx, started, err, call.cancelled);
      callback(serviceErrorOf(err, ctx.requestId));
    }
  }

  private async runStream<Req, Res>(
    call: grpc.ServerWritableStream<Req, Res>,
    handler: (call: grpc.ServerWritableStream<Req, Res>, ctx: CallerContext) => Promise<void>,
    traced: TracedSpan | undefined,
  ): Promise<void> {
    const started = performance.now();
    const ctx = this.context(call, traced);
    call.sendMetadata(requestIdMetadata(ctx.requestId));
    try {
      ctx.caller = await this.resolveCaller(call.metadata, ctx, true);
      refuseUnstorableText(call.request);
      await handler(call, ctx as CallerContext);
      this.logDone(ctx, started, undefined, call.cancelled);
      if (!call.cancelled) call.end();
    } catch (err) {
      if (traced) recordFailure(traced.span, err);
      this.logDone(ctx, started, err, call.cancelled);
      if (!call.cancelled) call.emit('error', serviceErrorOf(err, ctx.requestId));
    }
  }

  private context(call: AnyCall, traced: TracedSpan | undefined): CallContext {
    const incoming = call.metadata.get('x-request-id')[0];
    const requestId = typeof incoming === 'string' && isSaneRequestId(incoming) ? incoming : randomUUID();
    const method = call.getPath();
    const userAgent = call.metadata.get('user-agent')[0];
    const commandId = call.metadata.get(COMMAND_ID_KEY)[0];
    const deadline = call.getDeadline();
    const deadlineMs = deadline instanceof Date ? deadline.getTime() : deadline;
    const ctx: CallContext = {
      method,
      requestId,
      log: this.deps.logger.child({ requestId }),
      client: { ip: this.clientIp(call), ...(typeof userAgent === 'string' ? { userAgent } : {}) },
      caller: undefined,
    };
    if (typeof commandId === 'string') ctx.commandId = commandId;
    if (Number.isFinite(deadlineMs)) ctx.timeoutMs = Math.max(1, deadlineMs - Date.now());
    if (traced) ctx.trace = traced.fields;
    return ctx;
  }

  private clientIp(call: AnyCall): string {
    const forwarded = call.metadata.get('x-forwarded-for').map((value) => (typeof value === 'string' ? value : undefined));
    return this.deps.addresses.resolve(addressOfPeer(call.getPeer()), forwarded);
  }

  private async resolveCaller(metadata: grpc.Metadata, ctx: CallContext, required: boolean): Promise<Caller | undefined> {
    if (ctx.commandId !== undefined && !SANE_COMMAND_ID.test(ctx.commandId)) {
      throw AppError.invalid([{ key: COMMAND_ID_KEY, message: 'must be 1 to 128 characters of A-Z, a-z, 0-9, ".", "_", ":" or "-"' }]);
    }
    const header = metadata.get('authorization')[0];
    const caller = typeof header === 'string' ? await callerFromBearer(header, this.deps.accounts.tokens, this.deps.accounts.sessions) : undefined;
    if (!caller && required) {
      throw new AppError('unauthenticated', 'sign in first: send a valid access token as metadata "authorization: Bearer <token>"');
    }
    return caller;
  }

  private logDone(ctx: CallContext, started: number, err: unknown, cancelled: boolean): void {
    const durationMs = Math.round((performance.now() - started) * 100) / 100;
    if (err === undefined) {
      ctx.log.info({ method: ctx.method, status: 'OK', durationMs, ...(cancelled ? { cancelled: true } : {}) }, 'grpc call');
      return;
    }
    const error = serviceErrorOf(err, ctx.requestId);
    const code = error.metadata.get('svc-error-code')[0];
    const fields = { method: ctx.method, status: grpc.status[error.code], code, durationMs, ...(cancelled ? { cancelled: true } : {}) };
    if (code === 'internal') ctx.log.error({ ...fields, err }, 'grpc call');
    else ctx.log.info({ ...fields, reason: error.details }, 'grpc call');
  }
}

/**
 * The rule every transport applies to what a client sends (contracts/text.ts): a NUL in any
 * string of the message is invalid_argument naming the field, before a handler could take it
 * to PostgreSQL. (Protobuf strings are UTF-8, so a lone surrogate arrives as U+FFFD already.)
 */
function refuseUnstorableText(request: unknown): void {
  const found = unstorableTextIn(request);
  if (found.length > 0) throw AppError.invalid(found);
}

/**
 * Runs a call in a server span continuing the client's trace (metadata `traceparent`,
 * `tracestate`), named `<package.Service>/<Method>`; just runs it when tracing is off.
 */
function traced(call: AnyCall, run: (traced: TracedSpan | undefined) => Promise<void>): Promise<void> {
  if (!tracingEnabled()) return run(undefined);
  const path = call.getPath().replace(/^\//, '');
  const attributes = () => {
    const [service = '', method = ''] = path.split('/');
    return { 'rpc.system': 'grpc', 'rpc.service': service, 'rpc.method': method };
  };
  return inSpan(path, { kind: SpanKind.SERVER, parent: call.metadata.getMap(), external: true, attributes }, run);
}

function requestIdMetadata(requestId: string): grpc.Metadata {
  const metadata = new grpc.Metadata();
  metadata.set(REQUEST_ID_KEY, requestId);
  return metadata;
}

/** `127.0.0.1:50312` or `::1:50312` (grpc-js joins address and port with a colon) to the address. */
export function addressOfPeer(peer: string): string {
  const match = /^(.*):\d+$/.exec(peer);
  return (match?.[1] ?? peer).replace(/^\[(.*)\]$/, '$1') || 'unknown';
}
