/**
 * A room's realtime socket in the browser (protocol: contracts/ws/protocol.ts, rules R1–R18 in
 * docs/2026-11-23-realtime-protocol.md). It fetches a single-use ticket, connects, resumes
 * after the last applied seq when it reconnects, answers commands' promises by id, and
 * reconnects with capped exponential backoff and jitter unless the server ended the session
 * (4401) or the membership (4403), deleted the room (4404) or does not speak our version (4426).
 *
 * A browser sees a refused upgrade only as a socket that closed (1006), so what went wrong is
 * learnt from the ticket request, which the server refuses with the same words (an origin it
 * does not serve: 403; too many tickets: 429 with Retry-After), and from close codes. The
 * status carries that `problem` for the room's notice (views/room/connection-notice.tsx).
 *
 * A socket can also die without closing (a laptop that slept, a network that changed): a
 * connect that hangs is given up after CONNECT_TIMEOUT_MS, and an open socket is pinged when it
 * has been quiet, closed after MISSED_PONGS unanswered pings, and probed at once when the tab
 * comes back into view. While the browser says it is offline the connection waits for the
 * network instead of retrying; it reconnects as soon as the network or the tab is back.
 *
 * A phone that locked or switched apps comes back through here (docs/2026-11-29-background-resume.md):
 * a socket that closed while the page was away, or fails its probe on coming back, is replaced
 * at once rather than after the backoff, and one that lived through an `offline` is replaced
 * as soon as the network is back (its connection went with the old network; a resume costs a
 * ticket and replays what was missed). Such attempts say why in the status (`cause`).
 *
 * The browser (sockets, timers, the ticket request, online and visibility events) comes in
 * through a `ConnectionEnvironment` (browser-environment.ts), so the rules here run under test.
 */
import { signal } from '@preact/signals';
import type { RoomCommand } from '../../../contracts/room/commands.js';
import { CLOSE, clockSample, connectProtocols, realtimePath } from '../../../contracts/ws/constants.js';
import type { EventMessage, NotificationMessage, PlayerState, PongMessage, ResumedMessage, ServerMessage, SnapshotMessage } from '../../../contracts/ws/protocol.js';
import { ApiError, asApiError } from '../api/errors.js';
import { t } from '../i18n/i18n.js';

/** The part of a browser WebSocket the connection uses. */
export interface RoomSocket {
  readonly readyState: number;
  onmessage: ((message: { data: unknown }) => void) | null;
  onclose: ((close: { code: number; reason: string }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

/** A timer handle of the environment's clock. */
export type Timer = number | object;

/** What the connection needs from the browser; the tests give it fakes. */
export interface ConnectionEnvironment {
  /** A single-use ticket for the room's socket; rejects as the API client does. */
  ticket(roomId: string): Promise<string>;
  /** A socket to the room's `path` (ws: or wss: beside the page) offering `protocols`. */
  openSocket(path: string, protocols: string[]): RoomSocket;
  setTimer(callback: () => void, ms: number): Timer;
  clearTimer(timer: Timer): void;
  /** Date.now() */
  now(): number;
  random(): number;
  /** False only when the browser knows it has no network (navigator.onLine). */
  online(): boolean;
  /**
   * Calls back when the network comes or goes, and when the page is back (`visible`: shown
   * again, resumed from frozen, or restored from the back/forward cache); returns the unsubscribe.
   */
  watch(listener: (change: 'online' | 'offline' | 'visible') => void): () => void;
}

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

/** Why an attempt started at once instead of on the backoff: the page came back, or the network did. */
export type ReconnectCause = 'page_back' | 'network_back';

export type ConnectionStatus =
  /** `cause`: a reconnect started at once by the page or the network coming back (absent: the first connect, or the user's "Try now"). */
  | { state: 'connecting'; cause?: ReconnectCause }
  | { state: 'open' }
  /** `retryAt` is a `Date.now()` time; `problem` is absent for an ordinary drop (a restart, a network blip). */
  | { state: 'reconnecting'; attempt: number; inMs: number; retryAt: number; problem?: ConnectionProblem }
  /** The browser has no network: nothing is tried until it has (or the user asks). */
  | { state: 'offline'; attempt: number }
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
/** A socket that has not brought the room (snapshot or resumed) this long after the attempt began is given up. */
export const CONNECT_TIMEOUT_MS = 15_000;
/** An open socket that heard nothing for a whole interval is pinged... */
export const KEEPALIVE_MS = 10_000;
/** ...and given up after this many pings in a row went unanswered. */
export const MISSED_PONGS = 2;
/** A tab back in view probes its socket; no answer within this long and it reconnects. */
export const PROBE_TIMEOUT_MS = 5_000;
/**
 * A socket that closes this soon after the page came back died while it was away (the OS closed
 * it, or the close was queued while the page was frozen): reconnect at once, not on the backoff.
 */
export const BACK_WINDOW_MS = 3_000;
/** WebSocket.OPEN, which Node's types do not have. */
const OPEN = 1;

let nextId = 0;
/** Unique per page load: ids are the idempotency keys of commands (R6). */
const idPrefix = Math.random().toString(36).slice(2, 10);
const newId = (): string => `${idPrefix}-${++nextId}`;

interface Pending {
  resolve(result: unknown): void;
  reject(error: ApiError): void;
  timer: Timer;
}

export class RoomConnection {
  readonly status = signal<ConnectionStatus>({ state: 'connecting' });
  private socket: RoomSocket | null = null;
  private lastSeq: number | null = null;
  private attempt = 0;
  /** Sockets in a row that closed before the room's first message. */
  private drops = 0;
  private closedByUs = false;
  private retryTimer: Timer | null = null;
  /** Bumped by every attempt and by giving one up: a late ticket of an abandoned attempt is dropped. */
  private generation = 0;
  private connectTimer: Timer | null = null;
  private keepaliveTimer: Timer | null = null;
  private probeTimer: Timer | null = null;
  /** Whether the socket said anything since the last keepalive tick, and pings unanswered in a row. */
  private heard = false;
  private missed = 0;
  /** When the keepalive's next tick is due: a tick far later than that ran in a throttled or frozen page. */
  private keepaliveDue = 0;
  /** env.now() when the page last came back (visible, resumed, restored). */
  private backAt = Number.NEGATIVE_INFINITY;
  /** The open socket lived through an `offline`: its connection probably went with that network. */
  private throughOffline = false;
  private unwatch: (() => void) | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly pings = new Map<number, (pong: Pick<PongMessage, 't0' | 't1' | 't2'>) => void>();

  constructor(
    readonly roomId: string,
    private readonly handlers: ConnectionHandlers,
    private readonly env: ConnectionEnvironment,
  ) {}

  /** The seq of the last event (or snapshot) applied; a reconnect resumes after it. */
  applied(seq: number): void {
    this.lastSeq = seq;
  }

  async open(): Promise<void> {
    this.closedByUs = false;
    this.unwatch ??= this.env.watch((change) => this.environmentChanged(change));
    this.status.value = this.attempt === 0 ? { state: 'connecting' } : this.status.value;
    await this.connect();
  }

  /** One attempt: a ticket, then the socket, within CONNECT_TIMEOUT_MS. */
  private async connect(): Promise<void> {
    const generation = ++this.generation;
    this.connectTimer = this.env.setTimer(
      () => this.giveUp(generation, { kind: 'unreachable', message: `the room did not answer within ${CONNECT_TIMEOUT_MS / 1000} seconds` }),
      CONNECT_TIMEOUT_MS,
    );
    let ticket: string;
    try {
      ticket = await this.env.ticket(this.roomId);
    } catch (error) {
      if (generation !== this.generation || this.closedByUs) return;
      this.clearConnectTimer();
      const apiError = asApiError(error);
      if (apiError.status === 403 && ORIGIN_REFUSAL.test(apiError.message)) {
        // A configuration problem: it may be fixed while the page is open, so keep trying.
        this.scheduleReconnect({ kind: 'origin', message: apiError.message });
      } else if (apiError.status === 403 || apiError.status === 404 || apiError.status === 401) {
        // Not a member (any more), signed out, or the room is gone: reconnecting cannot help.
        this.end({ state: 'ended', code: apiError.status, reason: apiError.message, error: apiError });
      } else if (apiError.status === 429 || apiError.code === 'busy') {
        this.scheduleReconnect({ kind: 'rate_limited', message: apiError.message }, (apiError.retryAfterSeconds ?? 0) * 1000);
      } else if (apiError.status === 0) {
        this.scheduleReconnect({ kind: 'unreachable', message: apiError.message });
      } else this.scheduleReconnect({ kind: 'server', message: apiError.message });
      return;
    }
    if (this.closedByUs || generation !== this.generation) return;
    const socket = this.env.openSocket(realtimePath(this.roomId), connectProtocols({ ticket, ...(this.lastSeq !== null ? { resumeAfter: this.lastSeq } : {}) }));
    this.socket = socket;
    socket.onmessage = (message) => this.receive(message.data);
    socket.onclose = (close) => this.closed(socket, close.code, close.reason);
  }

  /** Tries again now instead of waiting for the scheduled retry (the notice's button). */
  retryNow(): void {
    const state = this.status.value.state;
    if ((state !== 'reconnecting' && state !== 'offline') || this.closedByUs) return;
    this.clearRetryTimer();
    void this.open();
  }

  /**
   * An attempt now, because the page or the network came back. `scheduled`: it replaces a retry
   * that was already counted (the wait is skipped); else it is counted, as a scheduled one would be.
   */
  private reconnectNow(cause: ReconnectCause, scheduled = false): void {
    this.clearRetryTimer();
    if (!scheduled) this.attempt += 1;
    this.status.value = { state: 'connecting', cause };
    void this.connect();
  }

  close(): void {
    this.closedByUs = true;
    this.generation += 1;
    this.unwatch?.();
    this.unwatch = null;
    this.clearRetryTimer();
    this.clearConnectTimer();
    this.stopKeepalive();
    this.socket?.close(1000, 'leaving the room');
    this.socket = null;
    this.failPending(t('room.connection.closed'));
  }

  /** Sends a room command; resolves with its result, rejects with the room's error. */
  command<T = unknown>(command: RoomCommand, options: { sentAt?: number } = {}): Promise<T> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) {
      return Promise.reject(new ApiError({ requestId: '', status: 0, code: 'unavailable', message: t('room.connection.notConnected') }));
    }
    const id = newId();
    return new Promise<T>((resolve, reject) => {
      const timer = this.env.setTimer(() => {
        this.pending.delete(id);
        reject(new ApiError({ requestId: '', status: 0, code: 'deadline_exceeded', message: t('room.connection.noAnswer') }));
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
  ping(clock: () => number = () => this.env.now()): Promise<{ offset: number; rtt: number }> {
    const socket = this.socket;
    if (!socket || socket.readyState !== OPEN) return Promise.reject(new Error('not connected'));
    const t0 = clock() + this.env.random() / 1000; // unique key; sub-ms noise is harmless to the formula
    return new Promise((resolve) => {
      this.pings.set(t0, (pong) => resolve(clockSample(pong, clock())));
      socket.send(JSON.stringify({ type: 'ping', t0 }));
    });
  }

  /** The local player's state for the room's ready wait (R11), with the media's length once known (the room ends items by it). */
  reportPlayer(state: PlayerState, mediaId: string | null, duration?: number): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify({ type: 'player', state, mediaId, ...(duration !== undefined ? { duration } : {}) }));
  }

  private receive(data: unknown): void {
    if (typeof data !== 'string') return;
    this.heard = true;
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
    this.throughOffline = false;
    this.clearConnectTimer();
    this.startKeepalive();
    this.status.value = { state: 'open' };
  }

  private settle(id: string, action: (pending: Pending) => void): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    this.env.clearTimer(pending.timer);
    this.pending.delete(id);
    action(pending);
  }

  private failPending(message: string): void {
    for (const [id, pending] of this.pending) {
      this.env.clearTimer(pending.timer);
      pending.reject(new ApiError({ requestId: '', status: 0, code: 'unavailable', message }));
      this.pending.delete(id);
    }
    this.pings.clear();
  }

  private closed(socket: RoomSocket, code: number, reason: string): void {
    if (socket !== this.socket) return;
    this.socket = null;
    this.clearConnectTimer();
    this.stopKeepalive();
    this.failPending(t('room.connection.lostPending'));
    if (this.closedByUs) return;
    if (FINAL_CLOSES.has(code)) {
      this.end({ state: 'ended', code, reason });
      return;
    }
    if (code === CLOSE.flooding) {
      this.scheduleReconnect({ kind: 'rate_limited', message: reason || t('room.connection.flooding') }, FLOODING_PAUSE_MS);
      return;
    }
    const neverOpened = this.status.value.state !== 'open';
    if (!neverOpened && this.env.now() - this.backAt <= BACK_WINDOW_MS && this.env.online()) {
      // It died while the page was away; the page is back, and someone is looking at it.
      this.reconnectNow('page_back');
      return;
    }
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
   * Gives up attempt `generation` (or the open socket, when it is that attempt's) without
   * waiting for the socket to close: a dead network may not tell it for minutes.
   */
  private giveUp(generation: number, problem?: ConnectionProblem, now?: ReconnectCause): void {
    if (generation !== this.generation || this.closedByUs) return;
    this.generation += 1;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onmessage = null;
      socket.onclose = null;
      socket.close();
    }
    this.clearConnectTimer();
    this.stopKeepalive();
    this.failPending(t('room.connection.lostPending'));
    if (now && this.env.online()) this.reconnectNow(now);
    else this.scheduleReconnect(problem);
  }

  private startKeepalive(): void {
    this.stopKeepalive();
    this.heard = false;
    this.missed = 0;
    const generation = this.generation;
    const tick = (): void => {
      // A hidden page's timers are throttled (to once a minute in Chromium after five hidden
      // minutes, unless it plays sound) and a frozen one's do not run: a tick that comes a whole
      // interval late judged pings the page could not hear answered. It pings again instead.
      const late = this.env.now() - this.keepaliveDue > KEEPALIVE_MS;
      if (this.heard) this.missed = 0;
      else if (late) {
        this.missed = 1;
        this.sendLivenessPing();
      } else if (this.missed >= MISSED_PONGS) {
        this.giveUp(generation, { kind: 'unreachable', message: 'the room stopped answering' });
        return;
      } else {
        this.missed += 1;
        this.sendLivenessPing();
      }
      this.heard = false;
      this.keepaliveDue = this.env.now() + KEEPALIVE_MS;
      this.keepaliveTimer = this.env.setTimer(tick, KEEPALIVE_MS);
    };
    this.keepaliveDue = this.env.now() + KEEPALIVE_MS;
    this.keepaliveTimer = this.env.setTimer(tick, KEEPALIVE_MS);
  }

  private stopKeepalive(): void {
    if (this.keepaliveTimer !== null) this.env.clearTimer(this.keepaliveTimer);
    if (this.probeTimer !== null) this.env.clearTimer(this.probeTimer);
    this.keepaliveTimer = null;
    this.probeTimer = null;
  }

  /** A ping whose pong only says the socket is alive (any message would). */
  private sendLivenessPing(): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify({ type: 'ping', t0: this.env.now() }));
  }

  private environmentChanged(change: 'online' | 'offline' | 'visible'): void {
    if (this.closedByUs) return;
    const state = this.status.value.state;
    if (change === 'offline') {
      // A retry now would fail at once: wait for the network instead. An open socket is kept
      // (the browser says offline for blips too), but is replaced when the network is back.
      if (state === 'open') this.throughOffline = true;
      if (state === 'reconnecting') {
        this.clearRetryTimer();
        this.status.value = { state: 'offline', attempt: this.attempt };
      }
      return;
    }
    if (change === 'visible') this.backAt = this.env.now();
    // Back online, or back in view (where the backoff timer may have been throttled): try now.
    if (state === 'offline' || state === 'reconnecting') {
      this.reconnectNow(change === 'online' ? 'network_back' : 'page_back', true);
      return;
    }
    if (change === 'online' && state === 'open' && this.throughOffline) {
      // The network changed under the socket: its connection is most likely gone (a new address,
      // a NAT that forgot it) and would only be found dead by the keepalive, 20-30 s from now.
      this.giveUp(this.generation, undefined, 'network_back');
      return;
    }
    if (change === 'visible' && state === 'open' && this.probeTimer === null) {
      // The page may have slept with the socket: one ping tells, without waiting for the keepalive.
      this.heard = false;
      this.sendLivenessPing();
      const generation = this.generation;
      this.probeTimer = this.env.setTimer(() => {
        this.probeTimer = null;
        if (!this.heard) this.giveUp(generation, { kind: 'unreachable', message: 'the room stopped answering' }, 'page_back');
      }, PROBE_TIMEOUT_MS);
    }
  }

  private end(status: Extract<ConnectionStatus, { state: 'ended' }>): void {
    this.unwatch?.();
    this.unwatch = null;
    this.status.value = status;
  }

  private clearConnectTimer(): void {
    if (this.connectTimer !== null) this.env.clearTimer(this.connectTimer);
    this.connectTimer = null;
  }

  private clearRetryTimer(): void {
    if (this.retryTimer !== null) this.env.clearTimer(this.retryTimer);
    this.retryTimer = null;
  }

  /**
   * Capped exponential backoff with jitter: attempt n waits between half and all of
   * min(cap, base * 2^n), so that pages dropped together do not come back together.
   * `atLeastMs` is a wait the server asked for (Retry-After). Offline, nothing is scheduled:
   * the network's return starts the next attempt.
   */
  private scheduleReconnect(problem?: ConnectionProblem, atLeastMs = 0): void {
    const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** this.attempt);
    const inMs = Math.max(atLeastMs, ceiling / 2 + (this.env.random() * ceiling) / 2);
    this.attempt += 1;
    if (!this.env.online()) {
      this.status.value = { state: 'offline', attempt: this.attempt };
      return;
    }
    this.status.value = { state: 'reconnecting', attempt: this.attempt, inMs, retryAt: this.env.now() + inMs, ...(problem ? { problem } : {}) };
    this.retryTimer = this.env.setTimer(() => {
      this.retryTimer = null;
      void this.open();
    }, inMs);
  }
}
