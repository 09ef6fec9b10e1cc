/**
 * A small typed Node client of the realtime protocol (`protocol.ts`), for tests, benchmarks
 * and scripts: connect with a ticket (or a bearer token), send commands and await their
 * `ok`/`error`, collect events and notifications, sample the clock, resume after a reconnect.
 * It does not reconnect by itself: `connect` again with a new ticket and `resumeAfter: seq`.
 */
import { randomBytes } from 'node:crypto';
import type { Agent } from 'node:http';
import WebSocket from 'ws';
import type { RoomCommand } from '../../contracts/room/commands.js';
import type { RoomCommandKind, RoomResultOf } from '../../actors/room/index.js';
import type { Notification } from '../../contracts/notifications.js';
import {
  clockSample,
  connectProtocols,
  realtimePath,
  ServerMessage,
  ticketPath,
  type ErrorShape,
  type EventMessage,
  type PongMessage,
  type ResumedMessage,
  type SnapshotMessage,
} from '../../contracts/ws/protocol.js';

export interface ConnectOptions {
  /** The gateway's HTTP base URL, e.g. `http://127.0.0.1:8080`. */
  url: string;
  roomId: string;
  ticket?: string;
  /** A native client's access token, sent as `Authorization: Bearer`. */
  token?: string;
  /** The page origin a browser would send; omit for a native client. */
  origin?: string;
  /** The last seq applied before a disconnect (R7). */
  resumeAfter?: number;
  /** Protocol versions to offer instead of this build's. */
  versions?: string[];
  headers?: Record<string, string>;
  /** Validate every server message with the protocol schemas (default true). */
  validate?: boolean;
  /** Keep every event in `events` (default true); off for long-lived load clients. */
  keepEvents?: boolean;
  /** Give up on the handshake and start after this long. Default 10 s. */
  timeoutMs?: number;
  /** Connects through this agent: a CA to trust, a source address (tests behind a TLS proxy). */
  agent?: Agent;
}

/** The server refused the upgrade with an HTTP response (R1). */
export class RealtimeRefused extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorShape | Record<string, unknown>,
  ) {
    super(`realtime connection refused: ${status} ${JSON.stringify(body)}`);
    this.name = 'RealtimeRefused';
  }
}

/** The socket closed before it started (an unsupported version, say). */
export class RealtimeClosed extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
  ) {
    super(`realtime connection closed: ${code} ${reason}`);
    this.name = 'RealtimeClosed';
  }
}

/** A command answered with `error`. */
export class RealtimeCommandError extends Error {
  constructor(readonly error: ErrorShape) {
    super(`${error.code}: ${error.message}`);
    this.name = 'RealtimeCommandError';
  }

  get code(): ErrorShape['code'] {
    return this.error.code;
  }
}

export interface CloseInfo {
  code: number;
  reason: string;
}

type Listener = (message: ServerMessage, receivedAt: number) => void;

/** Asks the HTTP API for a ticket (R15); `token` is the member's access token. */
export async function requestTicket(url: string, roomId: string, token: string, headers: Record<string, string> = {}): Promise<string> {
  const response = await fetch(`${url}${ticketPath(roomId)}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, ...headers } });
  const body = (await response.json()) as { ticket?: string };
  if (response.status !== 200 || typeof body.ticket !== 'string') throw new RealtimeRefused(response.status, body);
  return body.ticket;
}

export class RealtimeClient {
  /** The start the server sent: a snapshot, or `resumed` followed by the missed events. */
  start!: SnapshotMessage | ResumedMessage;
  /** The latest snapshot (the start's, or a later reset's). */
  snapshot: SnapshotMessage | undefined;
  /** Every event received, in order. */
  readonly events: EventMessage[] = [];
  readonly notifications: Notification[] = [];
  /** The seq this client is current with: resume with it. */
  seq = 0;
  readonly closed: Promise<CloseInfo>;
  private closeInfo: CloseInfo | undefined;
  private readonly pending = new Map<string, { resolve: (value: { result: unknown; seq: number }) => void; reject: (err: Error) => void }>();
  private readonly listeners = new Set<Listener>();
  private readonly idPrefix = randomBytes(6).toString('base64url');
  /** Events received, kept or not. */
  private eventCount = 0;
  private nextId = 0;

  private constructor(
    readonly ws: WebSocket,
    private readonly validate: boolean,
    private readonly keepEvents: boolean,
  ) {
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        this.closeInfo = { code, reason: reason.toString('utf8') };
        for (const waiter of this.pending.values()) waiter.reject(new RealtimeClosed(code, this.closeInfo.reason));
        this.pending.clear();
        resolve(this.closeInfo);
      });
    });
    ws.on('message', (data) => this.receive(data as Buffer));
  }

  /** Opens a room socket; resolves once the start (snapshot or resumed + missed events) is in. */
  static connect(options: ConnectOptions): Promise<RealtimeClient> {
    const target = new URL(realtimePath(options.roomId), options.url);
    target.protocol = target.protocol === 'https:' ? 'wss:' : 'ws:';
    const protocols = connectProtocols({
      ...(options.ticket !== undefined ? { ticket: options.ticket } : {}),
      ...(options.resumeAfter !== undefined ? { resumeAfter: options.resumeAfter } : {}),
      ...(options.versions ? { versions: options.versions } : {}),
    });
    const ws = new WebSocket(target, protocols, {
      ...(options.origin !== undefined ? { origin: options.origin } : {}),
      headers: { ...(options.token !== undefined ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
      perMessageDeflate: false,
      handshakeTimeout: options.timeoutMs ?? 10_000,
      ...(options.agent ? { agent: options.agent } : {}),
    });
    const client = new RealtimeClient(ws, options.validate ?? true, options.keepEvents ?? true);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`realtime connection to ${options.roomId}: no start within ${options.timeoutMs ?? 10_000} ms`));
        ws.terminate();
      }, options.timeoutMs ?? 10_000);
      const fail = (err: Error): void => {
        clearTimeout(timer);
        reject(err);
      };
      ws.on('unexpected-response', (_req, res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: Record<string, unknown>;
          try {
            body = JSON.parse(text) as Record<string, unknown>;
          } catch {
            body = { text };
          }
          fail(new RealtimeRefused(res.statusCode ?? 0, body));
          ws.terminate();
        });
      });
      ws.on('error', (err) => fail(err));
      void client.closed.then(({ code, reason }) => fail(new RealtimeClosed(code, reason)));
      client.listeners.add(function started(message) {
        if (message.type !== 'snapshot' && message.type !== 'resumed') return;
        client.listeners.delete(started);
        // The missed events of a resume are sent at once after `resumed`; wait for them.
        if (message.type === 'resumed' && message.missed > 0) {
          const expected = client.eventCount + message.missed;
          client.listeners.add(function caughtUp() {
            if (client.eventCount < expected) return;
            client.listeners.delete(caughtUp);
            clearTimeout(timer);
            resolve(client);
          });
          return;
        }
        clearTimeout(timer);
        resolve(client);
      });
    });
  }

  /** The protocol version the server selected. */
  get protocol(): string {
    return this.ws.protocol;
  }

  /** Sends a room command; resolves with the room's result, rejects with RealtimeCommandError. */
  command<K extends RoomCommandKind>(
    command: Extract<RoomCommand, { kind: K }>,
    options: { id?: string; sentAt?: number; timeoutMs?: number; traceparent?: string } = {},
  ): Promise<{ result: RoomResultOf<K>; seq: number }> {
    const id = options.id ?? this.newId();
    const frame = {
      type: 'command',
      id,
      command,
      ...(options.sentAt !== undefined ? { sentAt: options.sentAt } : {}),
      ...(options.traceparent !== undefined ? { traceparent: options.traceparent } : {}),
    };
    return this.request(id, frame, options.timeoutMs) as Promise<{
      result: RoomResultOf<K>;
      seq: number;
    }>;
  }

  /** Reports the player's state (R11), awaiting the room's answer. */
  player(state: 'buffering' | 'ready' | 'ended', mediaId: string | null, timeoutMs?: number): Promise<{ result: unknown; seq: number }> {
    const id = this.newId();
    return this.request(id, { type: 'player', id, state, mediaId }, timeoutMs);
  }

  /** One clock sample (R10). */
  async ping(timeoutMs = 5_000): Promise<{ offset: number; rtt: number; pong: PongMessage }> {
    const t0 = Date.now();
    const pong = await this.waitFor((message): message is PongMessage => message.type === 'pong' && message.t0 === t0, timeoutMs, () =>
      this.sendRaw({ type: 'ping', t0 }),
    );
    const t3 = Date.now();
    return { ...clockSample(pong, t3), pong };
  }

  /** Several samples; the offset of the one with the smallest round trip (R10). */
  async estimateClock(samples = 5): Promise<{ offset: number; rtt: number }> {
    let best: { offset: number; rtt: number } | undefined;
    for (let i = 0; i < samples; i += 1) {
      const sample = await this.ping();
      if (!best || sample.rtt < best.rtt) best = { offset: sample.offset, rtt: sample.rtt };
      // Distinct t0 values for the next sample.
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    return best!;
  }

  /** The first event (already received or coming) that matches, from index `from`. */
  async waitForEvent(predicate: (event: EventMessage) => boolean, timeoutMs = 10_000, from = 0): Promise<EventMessage> {
    const found = this.events.slice(from).find(predicate);
    if (found) return found;
    return this.waitFor((message): message is EventMessage => message.type === 'event' && predicate(message), timeoutMs);
  }

  /** The next server message that matches; `before` runs after the listener is in place. */
  waitFor<M extends ServerMessage>(predicate: (message: ServerMessage) => message is M, timeoutMs = 10_000, before?: () => void): Promise<M> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(listener);
        reject(new Error(`realtime: no matching message within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener: Listener = (message) => {
        if (!predicate(message)) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(message);
      };
      this.listeners.add(listener);
      before?.();
    });
  }

  /** Calls `listener` with every later server message and its receive time; returns the remover. */
  onMessage(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Stops reading from the socket (a client that cannot keep up), or starts again. */
  pauseReading(): void {
    (this.ws as unknown as { _socket: { pause(): void } })._socket.pause();
  }

  resumeReading(): void {
    (this.ws as unknown as { _socket: { resume(): void } })._socket.resume();
  }

  /** Sends anything as a text frame (tests of malformed input). */
  sendRaw(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  close(code = 1000, reason = ''): Promise<CloseInfo> {
    if (this.closeInfo) return Promise.resolve(this.closeInfo);
    this.ws.close(code, reason);
    return this.closed;
  }

  private newId(): string {
    this.nextId += 1;
    return `${this.idPrefix}-${this.nextId}`;
  }

  private request(id: string, message: unknown, timeoutMs = 10_000): Promise<{ result: unknown; seq: number }> {
    if (this.closeInfo) return Promise.reject(new RealtimeClosed(this.closeInfo.code, this.closeInfo.reason));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`realtime: no answer to ${id} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value);
        },
        reject: (err) => {
          clearTimeout(timer);
          reject(err);
        },
      });
      this.sendRaw(message);
    });
  }

  private receive(data: Buffer): void {
    const receivedAt = Date.now();
    const raw: unknown = JSON.parse(data.toString('utf8'));
    let message: ServerMessage;
    if (this.validate) {
      const parsed = ServerMessage.safeParse(raw);
      if (!parsed.success) throw new Error(`realtime: the server sent a message outside the protocol: ${parsed.error.message}`);
      message = parsed.data;
    } else {
      message = raw as ServerMessage;
    }
    switch (message.type) {
      case 'snapshot':
        this.snapshot = message;
        this.seq = message.seq;
        this.start ??= message;
        break;
      case 'resumed':
        this.seq = message.seq;
        this.start ??= message;
        break;
      case 'event':
        this.eventCount += 1;
        if (this.keepEvents) this.events.push(message);
        if (message.seq > this.seq) this.seq = message.seq;
        break;
      case 'notification':
        this.notifications.push(message.notification);
        break;
      case 'ok':
        this.pending.get(message.id)?.resolve({ result: message.result, seq: message.seq });
        this.pending.delete(message.id);
        break;
      case 'error':
        if (message.id !== null) {
          this.pending.get(message.id)?.reject(new RealtimeCommandError(message.error));
          this.pending.delete(message.id);
        }
        break;
      default:
        break;
    }
    for (const listener of [...this.listeners]) listener(message, receivedAt);
  }
}
