/**
 * One open room socket: it starts the client (snapshot, or `resumed` and the missed events),
 * relays the room's events and the user's notifications, answers commands, pings and player
 * reports, and closes with a code and reason when the member's watch ends or the client cannot
 * keep up. The watch (gateways/rooms/room-watch.ts) does presence, filtering and resume.
 */
import WebSocket from 'ws';
import type { Caller } from '../../accounts/index.js';
import type { RoomCommand } from '../../actors/index.js';
import { AppError } from '../../errors/index.js';
import { fieldIssuesOf } from '../../errors/index.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import type { Logger } from '../../observability/index.js';
import { inSpan, recordFailure, SpanKind, tracingEnabled, type TracedSpan } from '../../observability/index.js';
import { unstorableTextIn } from '../../contracts/text.js';
import type { RoomCommandEntry } from '../rooms/command-entry.js';
import type { FeedEvent } from '../rooms/room-feed.js';
import type { RoomWatch, WatchEndReason } from '../rooms/room-watch.js';
import type { RealtimeMetrics } from './metrics.js';
import type { UserNotifications } from './notifications.js';
import { sendShared, type SharedFrame } from './shared-frame.js';
import { ClientMessage, CLOSE, type ErrorShape, type ServerMessage } from '../../contracts/ws/protocol.js';

export interface SessionLimits {
  /** Bytes the socket may have waiting to be sent before it is closed as a slow consumer (R14). */
  sendBufferLimitBytes: number;
  /** Commands of one socket awaiting the room's answer; more are refused with `busy`. */
  maxCommandsInFlight: number;
  /** How long a slow consumer's close handshake may take before the connection is cut. */
  slowCloseGraceMs: number;
}

export interface SessionContext {
  ws: WebSocket;
  watch: RoomWatch;
  caller: Caller;
  roomId: string;
  connectionId: string;
  requestId: string;
  /** The client asked to resume (so a snapshot start means the missed events were not held). */
  resumeAsked: boolean;
  log: Logger;
  commands: RoomCommandEntry;
  notifications: UserNotifications;
  metrics: RealtimeMetrics;
  limits: SessionLimits;
  /** The frame of an event, serialised once per process and shared by every socket that sends it. */
  eventFrame: (event: FeedEvent) => SharedFrame;
  onClose: (session: RealtimeSession) => void;
}

/**
 * A client told to wait (`retryAfterMs`) that has more than this many commands refused as
 * `rate_limited` within FLOOD_WINDOW_MS is not waiting: its socket is closed rather than
 * answered forever. The rates let a few commands through every second, so successes do not
 * reset the count.
 */
const FLOOD_CLOSE_AFTER = 100;
const FLOOD_WINDOW_MS = 10_000;

const END_CODES: Record<WatchEndReason, number> = {
  left: CLOSE.membershipEnded,
  kicked: CLOSE.membershipEnded,
  banned: CLOSE.membershipEnded,
  rejected: CLOSE.membershipEnded,
  room_deleted: CLOSE.roomDeleted,
};

export class RealtimeSession {
  /** Cleared by every liveness round, set again by the client's pong (or any message). */
  alive = true;
  /** Settles when the room has been told this connection is gone (or that failed). */
  left: Promise<void> = Promise.resolve();
  private inFlight = 0;
  /** Commands refused as `rate_limited` since `limitedSince` (ms since epoch). */
  private limited = 0;
  private limitedSince = 0;
  private closed = false;
  private unsubscribeNotifications: (() => void) | undefined;

  constructor(private readonly ctx: SessionContext) {
    const { ws } = ctx;
    ws.on('message', (data, isBinary) => this.receive(data, isBinary));
    ws.on('pong', () => {
      this.alive = true;
    });
    ws.on('close', () => this.finish());
    ws.on('error', (err) => ctx.log.debug({ err }, 'room socket error'));
  }

  /** Sends the start (R3, R7, R8), then delivers events and notifications. */
  start(): void {
    const { watch, connectionId } = this.ctx;
    const start = watch.start;
    if (start.kind === 'snapshot') {
      this.send({ type: 'snapshot', reason: this.ctx.resumeAsked ? 'resume_unavailable' : 'connect', connectionId, seq: start.snapshot.seq, view: start.snapshot, serverTime: Date.now() });
    } else {
      this.send({ type: 'resumed', connectionId, after: start.fromSeq, seq: start.seq, missed: start.events.length, serverTime: Date.now() });
      for (const event of start.events) this.sendFrame(this.ctx.eventFrame(event));
    }
    watch.begin({
      event: (event) => this.sendFrame(this.ctx.eventFrame(event)),
      snapshot: (view) => this.send({ type: 'snapshot', reason: 'reset', connectionId, seq: view.seq, view, serverTime: Date.now() }),
      ended: (reason, message) => this.close(END_CODES[reason], message),
    });
    if (this.ctx.caller.kind === 'user') {
      this.unsubscribeNotifications = this.ctx.notifications.subscribe(this.ctx.caller.userId, (notification) =>
        this.send({ type: 'notification', notification }),
      );
    }
  }

  /** Liveness round: a socket that did not answer the last ping is cut. */
  probe(): void {
    if (!this.alive) {
      this.ctx.log.debug('room socket answered no ping; cutting it');
      this.ctx.ws.terminate();
      return;
    }
    this.alive = false;
    if (this.ctx.ws.readyState === WebSocket.OPEN) this.ctx.ws.ping();
  }

  close(code: number, reason: string): void {
    const { ws } = this.ctx;
    if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING) ws.close(code, truncateReason(reason));
  }

  /** Answers with a closing handshake, then waits (bounded) for it: the shutdown path. */
  async shutdown(code: number, reason: string, graceMs: number): Promise<void> {
    const { ws } = this.ctx;
    if (ws.readyState === WebSocket.CLOSED) return;
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    this.close(code, reason);
    const timer = setTimeout(() => ws.terminate(), graceMs);
    await closed;
    clearTimeout(timer);
  }

  private send(message: ServerMessage): void {
    this.sendFrame(JSON.stringify(message));
  }

  /**
   * Every frame goes through here. A client that stopped reading makes `bufferedAmount` grow
   * (the kernel's buffers are full); past the limit it is closed instead of queueing more (R14).
   */
  private sendFrame(frame: string | SharedFrame): void {
    const { ws, limits } = this.ctx;
    if (ws.readyState !== WebSocket.OPEN) return;
    // A string's length (UTF-16 units) is a lower bound of its bytes; close enough for a limit of this size.
    const length = typeof frame === 'string' ? frame.length : frame.wire.length;
    if (ws.bufferedAmount + length > limits.sendBufferLimitBytes) {
      this.slowConsumer();
      return;
    }
    if (typeof frame === 'string') ws.send(frame, { binary: false });
    else sendShared(ws, frame);
  }

  private slowConsumer(): void {
    const { ws, limits, log, metrics } = this.ctx;
    metrics.slowConsumerCloses.inc();
    log.info({ bufferedBytes: ws.bufferedAmount, limit: limits.sendBufferLimitBytes }, 'closing a room socket whose client stopped reading');
    this.close(CLOSE.slowConsumer, `slow consumer: more than ${limits.sendBufferLimitBytes} bytes waiting to be sent`);
    // The close frame waits behind what the client has not read; it gets a moment, not forever.
    setTimeout(() => ws.terminate(), limits.slowCloseGraceMs).unref();
  }

  private receive(data: WebSocket.RawData, isBinary: boolean): void {
    const receivedAt = Date.now();
    this.alive = true;
    if (isBinary) {
      this.close(CLOSE.unsupportedData, 'binary frames are not part of the protocol; send JSON text frames');
      return;
    }
    let raw: unknown;
    try {
      raw = JSON.parse(rawText(data));
    } catch {
      this.sendError(null, AppError.invalid([{ key: 'message', message: 'is not JSON' }]));
      return;
    }
    const parsed = ClientMessage.safeParse(raw);
    if (!parsed.success) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      this.sendError(typeof id === 'string' && /^[A-Za-z0-9_.:-]{1,64}$/.test(id) ? id : null, AppError.invalid(fieldIssuesOf(parsed.error.issues, '', 'message')));
      return;
    }
    const message = parsed.data;
    // The rule every transport applies (contracts/text.ts), over the whole frame as sent.
    const unstorable = unstorableTextIn(raw);
    if (unstorable.length > 0) {
      this.sendError(message.type === 'ping' ? null : (message.id ?? null), AppError.invalid(unstorable));
      return;
    }
    switch (message.type) {
      case 'ping':
        this.send({ type: 'pong', t0: message.t0, t1: receivedAt, t2: Date.now() });
        return;
      case 'command': {
        const command = message.command as RoomCommand;
        // The participant is tied to this socket: it leaves the call when the socket leaves the room.
        if (command.kind === 'voice.join') command.connectionId = this.ctx.connectionId;
        void this.traced(command.kind, message, (span) => this.run(message.id, command, message.sentAt, false, span));
        return;
      }
      case 'player': {
        const command: RoomCommand = { kind: 'member.player', state: message.state, mediaId: message.mediaId, ...(message.duration !== undefined ? { duration: message.duration } : {}) };
        void this.traced(command.kind, {}, (span) => this.run(message.id, command, undefined, message.id === undefined, span));
        return;
      }
    }
  }

  /** Runs a frame's command in a span continuing the client's trace (the frame's `traceparent`), when tracing is on. */
  private traced(kind: string, fields: object, run: (traced: TracedSpan | undefined) => Promise<void>): Promise<void> {
    if (!tracingEnabled()) return run(undefined);
    const attributes = () => ({ 'svc.room.id': this.ctx.roomId, 'svc.command.kind': kind, 'svc.connection.id': this.ctx.connectionId });
    return inSpan(`ws ${kind}`, { kind: SpanKind.SERVER, parent: fields, external: true, attributes }, run);
  }

  /**
   * Sends a command to the room as this caller; the client's id, scoped to this caller, kind and
   * room, is the idempotency key (R6). `traced`: the frame's span, continued by the send and marked with a failure.
   */
  private async run(id: string | undefined, command: RoomCommand, sentAt: number | undefined, quiet = false, traced?: TracedSpan): Promise<void> {
    if (this.inFlight >= this.ctx.limits.maxCommandsInFlight) {
      if (!quiet) this.sendError(id ?? null, new AppError('busy', `more than ${this.ctx.limits.maxCommandsInFlight} commands of this socket await an answer; wait for some`));
      return;
    }
    this.inFlight += 1;
    try {
      const { result, seq } = await this.ctx.commands.send({
        transport: 'ws',
        caller: this.ctx.caller,
        roomId: this.ctx.roomId,
        command,
        operation: command.kind,
        clientId: id,
        sentAt,
        trace: traced?.fields,
      });
      if (id !== undefined) this.send({ type: 'ok', id, result, seq });
    } catch (err) {
      if (traced) recordFailure(traced.span, err);
      if (err instanceof AppError && err.code === 'rate_limited' && this.flooding()) {
        this.close(CLOSE.flooding, `more than ${FLOOD_CLOSE_AFTER} commands in ${FLOOD_WINDOW_MS / 1000} s were refused as rate_limited; wait before reconnecting`);
        return;
      }
      if (!quiet) this.sendError(id ?? null, err);
      else this.ctx.log.debug({ err, kind: command.kind }, 'unanswered room command failed');
    } finally {
      this.inFlight -= 1;
    }
  }

  /** Counts a `rate_limited` refusal; true once the client has ignored enough of them. */
  private flooding(): boolean {
    const now = Date.now();
    if (now - this.limitedSince > FLOOD_WINDOW_MS) {
      this.limitedSince = now;
      this.limited = 0;
    }
    this.limited += 1;
    return this.limited > FLOOD_CLOSE_AFTER;
  }

  private sendError(id: string | null, err: unknown): void {
    this.send({ type: 'error', id, error: this.errorShape(id, err) });
  }

  private errorShape(id: string | null, thrown: unknown): ErrorShape {
    // A database that cannot be reached (restart, failover) is unavailable, to retry.
    const err = classifyDatabaseError(thrown, 'command', { detail: false });
    const requestId = id === null ? this.ctx.requestId : `${this.ctx.requestId}/${id}`;
    if (err instanceof AppError) {
      if (err.status >= 500) this.ctx.log.warn({ err, requestId }, 'room command failed');
      return {
        requestId,
        status: err.status,
        code: err.code,
        message: err.message,
        ...(err.issues.length > 0 ? { issues: err.issues } : {}),
        ...(err.retryAfterSeconds !== undefined ? { retryAfterMs: Math.max(1, Math.ceil(err.retryAfterSeconds)) * 1000 } : {}),
      };
    }
    this.ctx.log.error({ err, requestId }, 'room command failed');
    return { requestId, status: 500, code: 'internal', message: 'internal error; quote the request id when reporting it' };
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribeNotifications?.();
    this.ctx.onClose(this);
    this.left = this.ctx.watch.close();
  }
}

function rawText(data: WebSocket.RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

/** A close reason is at most 123 bytes of UTF-8. */
function truncateReason(reason: string): string {
  let out = reason;
  while (Buffer.byteLength(out) > 123) out = out.slice(0, -1);
  return out;
}
