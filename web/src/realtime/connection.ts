/**
 * A room's realtime socket in the browser (protocol: gateways/ws/protocol.ts, rules R1–R18 in
 * docs/2026-11-23-realtime-protocol.md). It fetches a single-use ticket, connects, resumes
 * after the last applied seq when it reconnects, answers commands' promises by id, and
 * reconnects with capped exponential backoff and jitter unless the server ended the session
 * (4401) or the membership (4403), deleted the room (4404) or does not speak our version (4426).
 *
 * A browser sees a refused upgrade only as a socket that closed (1006), so what went wrong is
 * learnt from the ticket request, which the server refuses with the same words (an origin it
 * does not serve: 403; too many tickets: 429 with Retry-After), and from close codes. The
 * status carries that `problem` for the room's notice (views/room/connection-notice.tsx).
 */
import { signal } from '@preact/signals';
import type { RoomCommand } from '../../../actors/room/commands.js';
import { CLOSE, clockSample, connectProtocols, realtimePath } from '../../../gateways/ws/protocol-constants.js';
import type { EventMessage, NotificationMessage, PlayerState, PongMessage, ResumedMessage, ServerMessage, SnapshotMessage } from '../../../gateways/ws/protocol.js';
import { api, call } from '../api/client.js';
import { ApiError, asApiError } from '../api/errors.js';

/** Why the socket is not open, in the server's words where it gave any. */
export interface ConnectionProblem {
  /**
   * origin: this page's address may not open the socket (config); rate_limited: wait;
   * unreachable: no answer from the server; dropped: the socket closed before it opened although
   * the ticket was issued (a proxy that does not pass WebSockets); server: any other refusal.
   */
  kind: 'origin' | 'rate_limited' | 'unreachable' | 'dropped' | 'server';
  message: string;
}

export type ConnectionStatus =
  | { state: 'connecting' }
  | { state: 'open' }
  /** `retryAt` is a `Date.now()` time; `problem` is absent for an ordinary drop (a restart, a network blip). */
  | { state: 'reconnecting'; attempt: number; inMs: number; retryAt: number; problem?: ConnectionProblem }
  /** Final: the socket will not come back (`code` is the close code, `error` a refused upgrade). */
  | { state: 'ended'; code: number; reason: string; error?: ApiError };

export interface ConnectionHandlers {
  snapshot(message: SnapshotMessage): void;
  resumed?(message: ResumedMessage): void;
  event(message: EventMessage): void;
  notification?(message: NotificationMessage): void;
}

const FINAL_CLOSES = new Set<number>([CLOSE.sessionEnded, CLOSE.membershipEnded, CLOSE.roomDeleted, CLOSE.unsupportedVersion]);
/** The first retry waits about this long, each next one twice as long, up to the cap. */
const BACKOFF_BASE_MS = 500;
const BACKOFF_CAP_MS = 30_000;
/** A client that flooded (4429) waits at least this long before it comes back. */
const FLOODING_PAUSE_MS = 10_000;
/** Consecutive sockets that close before opening, after an issued ticket, before it is called a problem. */
const DROPS_BEFORE_PROBLEM = 2;
/** The server's words for an origin refusal (gateways/ws/handshake.ts OriginPolicy). */
const ORIGIN_REFUSAL = /not allowed to open room sockets/;
const COMMAND_TIMEOUT_MS = 15_000;

let nextId = 0;
/** Unique per page load: ids are the idempotency keys of commands (R6). */
const idPrefix = Math.random().toString(36).slice(2, 10);
const newId = (): string => `${idPrefix}-${++nextId}`;

interface Pending {
  resolve(result: unknown): void;
  reject(error: ApiError): void;
  timer: ReturnType<typeof setTimeout>;
}

export class RoomConnection {
  readonly status = signal<ConnectionStatus>({ state: 'connecting' });
  private socket: WebSocket | null = null;
  private lastSeq: number | null = null;
  private attempt = 0;
  /** Sockets in a row that closed before the room's first message. */
  private drops = 0;
  private closedByUs = false;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly pings = new Map<number, (pong: Pick<PongMessage, 't0' | 't1' | 't2'>) => void>();

  constructor(
    readonly roomId: string,
    private readonly handlers: ConnectionHandlers,
  ) {}

  /** The seq of the last event (or snapshot) applied; a reconnect resumes after it. */
  applied(seq: number): void {
    this.lastSeq = seq;
  }

  async open(): Promise<void> {
    this.closedByUs = false;
    this.status.value = this.attempt === 0 ? { state: 'connecting' } : this.status.value;
    let ticket: string;
    try {
      ticket = (await call(api.POST('/api/rooms/{roomId}/realtime/ticket', { params: { path: { roomId: this.roomId } } }))).ticket;
    } catch (error) {
      const apiError = asApiError(error);
      if (apiError.status === 403 && ORIGIN_REFUSAL.test(apiError.message)) {
        // A configuration problem: it may be fixed while the page is open, so keep trying.
        this.scheduleReconnect({ kind: 'origin', message: apiError.message });
      } else if (apiError.status === 403 || apiError.status === 404 || apiError.status === 401) {
        // Not a member (any more), signed out, or the room is gone: reconnecting cannot help.
        this.status.value = { state: 'ended', code: apiError.status, reason: apiError.message, error: apiError };
      } else if (apiError.status === 429 || apiError.code === 'busy') {
        this.scheduleReconnect({ kind: 'rate_limited', message: apiError.message }, (apiError.retryAfterSeconds ?? 0) * 1000);
      } else if (apiError.status === 0) {
        this.scheduleReconnect({ kind: 'unreachable', message: apiError.message });
      } else this.scheduleReconnect({ kind: 'server', message: apiError.message });
      return;
    }
    if (this.closedByUs) return;
    const url = new URL(realtimePath(this.roomId), location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url, connectProtocols({ ticket, ...(this.lastSeq !== null ? { resumeAfter: this.lastSeq } : {}) }));
    this.socket = socket;
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (close) => this.closed(socket, close.code, close.reason);
  }

  /** Tries again now instead of waiting for the scheduled retry (the notice's button). */
  retryNow(): void {
    if (this.status.value.state !== 'reconnecting' || this.closedByUs) return;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    void this.open();
  }

  close(): void {
    this.closedByUs = true;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.socket?.close(1000, 'leaving the room');
    this.socket = null;
    this.failPending('the connection to the room was closed');
  }

  /** Sends a room command; resolves with its result, rejects with the room's error. */
  command<T = unknown>(command: RoomCommand, options: { sentAt?: number } = {}): Promise<T> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new ApiError({ requestId: '', status: 0, code: 'unavailable', message: 'not connected to the room: reconnecting' }));
    }
    const id = newId();
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new ApiError({ requestId: '', status: 0, code: 'deadline_exceeded', message: 'the room did not answer in time' }));
      }, COMMAND_TIMEOUT_MS);
      this.pending.set(id, { resolve: resolve, reject, timer });
      socket.send(JSON.stringify({ type: 'command', id, command, ...(options.sentAt !== undefined ? { sentAt: options.sentAt } : {}) }));
    });
  }

  /**
   * One clock sample (R10): offset is server clock minus the local clock `clock` (default
   * `Date.now`; the player passes `performance.timeOrigin + performance.now()`, the clock its
   * frames are timed with, so that the offset applies to them as is).
   */
  ping(clock: () => number = Date.now): Promise<{ offset: number; rtt: number }> {
    const socket = this.socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected'));
    const t0 = clock() + Math.random() / 1000; // unique key; sub-ms noise is harmless to the formula
    return new Promise((resolve) => {
      this.pings.set(t0, (pong) => resolve(clockSample(pong, clock())));
      socket.send(JSON.stringify({ type: 'ping', t0 }));
    });
  }

  /** The local player's state for the room's ready wait (R11), with the media's length once known (the room ends items by it). */
  reportPlayer(state: PlayerState, mediaId: string | null, duration?: number): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: 'player', state, mediaId, ...(duration !== undefined ? { duration } : {}) }));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    const message = JSON.parse(data) as ServerMessage;
    switch (message.type) {
      case 'snapshot':
        this.connected();
        this.lastSeq = message.seq;
        this.handlers.snapshot(message);
        break;
      case 'resumed':
        this.connected();
        this.handlers.resumed?.(message);
        break;
      case 'event':
        this.lastSeq = message.seq;
        this.handlers.event(message);
        break;
      case 'ok':
        this.settle(message.id, (pending) => pending.resolve(message.result));
        break;
      case 'error':
        if (message.id !== null) this.settle(message.id, (pending) => pending.reject(new ApiError(message.error)));
        break;
      case 'pong': {
        const resolve = this.pings.get(message.t0);
        this.pings.delete(message.t0);
        resolve?.(message);
        break;
      }
      case 'notification':
        this.handlers.notification?.(message);
        break;
    }
  }

  private connected(): void {
    this.attempt = 0;
    this.drops = 0;
    this.status.value = { state: 'open' };
  }

  private settle(id: string, action: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    action(pending);
  }

  private failPending(message: string): void {
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(new ApiError({ requestId: '', status: 0, code: 'unavailable', message }));
      this.pending.delete(id);
    }
    this.pings.clear();
  }

  private closed(socket: WebSocket, code: number, reason: string): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.failPending('the connection to the room was lost');
    if (this.closedByUs) return;
    if (FINAL_CLOSES.has(code)) {
      this.status.value = { state: 'ended', code, reason };
      return;
    }
    if (code === CLOSE.flooding) {
      this.scheduleReconnect({ kind: 'rate_limited', message: reason || 'too many commands were sent' }, FLOODING_PAUSE_MS);
      return;
    }
    const neverOpened = this.status.value.state !== 'open';
    if (neverOpened && code === 1006) this.drops += 1;
    if (this.drops >= DROPS_BEFORE_PROBLEM) {
      this.scheduleReconnect({
        kind: 'dropped',
        message: 'the server issued a ticket, but the live connection closed before it opened; a proxy in front of the service may not pass WebSocket upgrades',
      });
      return;
    }
    this.scheduleReconnect();
  }

  /**
   * Capped exponential backoff with jitter: attempt n waits between half and all of
   * min(cap, base * 2^n), so that pages dropped together do not come back together.
   * `atLeastMs` is a wait the server asked for (Retry-After).
   */
  private scheduleReconnect(problem?: ConnectionProblem, atLeastMs = 0): void {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    const inMs = Math.max(atLeastMs, ceiling / 2 + (Math.random() * ceiling) / 2);
    this.attempt += 1;
    this.status.value = { state: 'reconnecting', attempt: this.attempt, inMs, retryAt: Date.now() + inMs, ...(problem ? { problem } : {}) };
    this.retryTimer = setTimeout(() => void this.open(), inMs);
  }
}
