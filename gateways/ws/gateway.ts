/**
 * The realtime gateway: room WebSockets on the public HTTP server
 * (`GET /api/rooms/{roomId}/realtime` with `Upgrade: websocket`). Protocol and rules:
 * `docs/2026-11-23-realtime-protocol.md`.
 *
 * Everything that can refuse a connection happens before the upgrade, and a refusal is an
 * HTTP response in the API's error shape written on the raw socket (R1): the path (404), the
 * handshake and protocol list (400), the origin (403), the credentials (401), the user's
 * connection cap (429 with Retry-After: gateways/connection-cap.ts), the membership (403, or
 * the room's 404). The membership check is the watch's opening itself
 * (`presence.enter`), so an accepted socket starts with what that answered.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { Registry } from 'prom-client';
import { subjectOf, type Caller } from '../../accounts/index.js';
import { callerFromToken } from '../bearer.js';
import { AppError } from '../../errors/index.js';
import { ClientAddresses } from '../../net/index.js';
import { reachedAs } from '../../net/index.js';
import { isSaneRequestId, REQUEST_ID_HEADER } from '../request-id.js';
import type { GatewayDeps } from '../gateway-deps.js';
import type { FeedEvent } from '../rooms/room-feed.js';
import { OriginPolicy, readUpgrade, refusalOf, ticketRefusal, UpgradeRefusal, type Refusal, type UpgradeRequest } from './handshake.js';
import { createRealtimeMetrics, type RealtimeMetrics } from './metrics.js';
import { UserNotifications } from './notifications.js';
import { CLOSE, PROTOCOL_VERSIONS, type EventMessage } from '../../contracts/ws/protocol.js';
import { RealtimeSession, type SessionLimits } from './session.js';
import { RealtimeTickets } from './tickets.js';
import { sharedTextFrame, type SharedFrame } from './shared-frame.js';
import { LivenessRounds } from './liveness-rounds.js';

export const DEFAULT_SEND_BUFFER_LIMIT_BYTES = 1024 * 1024;
/** Incoming frames; a command is small (a playlist item with every header and subtitle stays far below). */
export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024;

export interface RealtimeGatewayOptions {
  /** The process registry (`createMetrics().registry`), served on `/metrics`. */
  registry: Registry;
  tickets?: RealtimeTickets;
  /** Default 1 MiB (R14). */
  sendBufferLimitBytes?: number;
  maxMessageBytes?: number;
  /** WebSocket pings to every socket; one unanswered for a whole interval cuts it. Default 30 s. */
  livenessIntervalMs?: number;
  maxCommandsInFlight?: number;
  slowCloseGraceMs?: number;
}

/** An upgrade that passed every check before the room's. */
interface Admitted {
  request: UpgradeRequest;
  caller: Caller;
  version: string;
  requestId: string;
  log: GatewayDeps['logger'];
}

export class RealtimeGateway {
  readonly notifications: UserNotifications;
  readonly metrics: RealtimeMetrics;
  private readonly wss: WebSocketServer;
  private readonly sessions = new Set<RealtimeSession>();
  /** The protocol entry the handshake answers with, decided before `handleUpgrade`. */
  private readonly selected = new WeakMap<IncomingMessage, string>();
  /** An event's frame is built once per process, whatever the number of sockets it goes to. */
  private readonly eventFrames = new WeakMap<FeedEvent, SharedFrame>();
  private readonly tickets: RealtimeTickets;
  private readonly origins: OriginPolicy;
  private readonly addresses: ClientAddresses;
  private readonly limits: SessionLimits;
  private readonly liveness: LivenessRounds<RealtimeSession>;
  private closing = false;

  constructor(
    private readonly deps: GatewayDeps,
    options: RealtimeGatewayOptions,
  ) {
    const { config } = deps;
    this.tickets = options.tickets ?? new RealtimeTickets(deps.redis);
    this.origins = new OriginPolicy(config.server.cors_allowed_origins, config.server.public_url || config.webauthn.rp_origin);
    this.addresses = new ClientAddresses(config.server);
    this.notifications = new UserNotifications(deps.nats, config.nats.subject_prefix, deps.logger);
    this.limits = {
      sendBufferLimitBytes: options.sendBufferLimitBytes ?? DEFAULT_SEND_BUFFER_LIMIT_BYTES,
      maxCommandsInFlight: options.maxCommandsInFlight ?? 32,
      slowCloseGraceMs: options.slowCloseGraceMs ?? 10_000,
    };
    this.wss = new WebSocketServer({
      noServer: true,
      clientTracking: false,
      perMessageDeflate: false,
      maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
      handleProtocols: (_offered, req) => this.selected.get(req) ?? false,
    });
    this.metrics = createRealtimeMetrics(options.registry, {
      sockets: () => this.sessions.size,
      roomSubscriptions: () => deps.events.subscriptionCount(),
      notificationSubscriptions: () => this.notifications.subscriptionCount(),
    });
    this.liveness = new LivenessRounds(options.livenessIntervalMs ?? 30_000);
  }

  /** Serves room sockets on `server` (its `upgrade` event). */
  attach(server: Server): void {
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => void this.upgrade(req, socket, head));
  }

  socketCount(): number {
    return this.sessions.size;
  }

  /**
   * Closes every socket with 1012 (reconnect and resume elsewhere) and waits, bounded, for the
   * close handshakes and the rooms' `presence.leave`.
   */
  async close(graceMs = 2_000): Promise<void> {
    this.closing = true;
    this.liveness.stop();
    const sessions = [...this.sessions];
    await Promise.all(sessions.map((session) => session.shutdown(CLOSE.serviceRestart, 'the gateway is restarting: reconnect and resume', graceMs)));
    await Promise.race([Promise.all(sessions.map((session) => session.left)), new Promise((resolve) => setTimeout(resolve, graceMs).unref())]);
    this.wss.close();
  }

  private async upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    const incoming = req.headers[REQUEST_ID_HEADER.toLowerCase()];
    const requestId = typeof incoming === 'string' && isSaneRequestId(incoming) ? incoming : randomUUID();
    // Every line of the socket names its client, as the HTTP request it is would be counted.
    const log = this.deps.logger.child({ requestId, ip: this.addresses.ofRequest(req) });
    // Until ws owns the socket, a reset by the client must not become an uncaught error.
    const onSocketError = (err: Error): void => log.debug({ err }, 'socket error before the upgrade');
    socket.on('error', onSocketError);
    try {
      if (this.closing) throw new AppError('unavailable', 'this gateway is shutting down; connect again');
      const request = readUpgrade(req);
      this.origins.check(request, reachedAs(req, this.addresses.fromTrustedProxy(req)));
      const caller = await this.authenticate(request);
      const version = request.versions.find((entry) => (PROTOCOL_VERSIONS as readonly string[]).includes(entry));
      socket.off('error', onSocketError);
      if (version === undefined) {
        this.refuseVersion(req, socket, head, request.versions[0]!);
        return;
      }
      await this.accept(req, socket, head, { request, caller, version, requestId, log });
    } catch (err) {
      socket.off('error', onSocketError);
      const refusal = refusalOf(err);
      if (!refusal) log.error({ err }, 'room socket upgrade failed');
      else this.logRefusal(log, req, refusal);
      this.refuse(socket, requestId, refusal ?? { status: 500, code: 'internal', message: 'internal error; quote the request id when reporting it' });
    }
  }

  private async accept(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    admitted: Admitted,
  ): Promise<void> {
    const { caller } = admitted;
    // Refused (429) before the room is asked: a user past the cap costs the room nothing.
    const releaseSlot = this.deps.connectionCap.reserve(caller);
    try {
      if (!(await this.upgradeToSession(req, socket, head, admitted, releaseSlot))) releaseSlot();
    } catch (err) {
      releaseSlot();
      throw err;
    }
  }

  /** Opens the watch and upgrades; true once a session holds the socket (and will release its slot). */
  private async upgradeToSession(
    req: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    admitted: Admitted,
    releaseSlot: () => void,
  ): Promise<boolean> {
    const { request, caller, version, requestId } = admitted;
    const connectionId = `ws-${randomBytes(12).toString('base64url')}`;
    const log = admitted.log.child({ roomId: request.roomId, connectionId });
    socket.on('error', (err: Error) => log.debug({ err }, 'socket error during the upgrade'));
    // Rejects with the room's answer: forbidden for anyone not an active member, not_found.
    const watch = await this.deps.watcher.open({
      roomId: request.roomId,
      caller,
      connectionId,
      ...(request.resumeAfter !== undefined ? { resumeFrom: request.resumeAfter } : {}),
    });
    if (this.closing || socket.destroyed || !socket.readable || !socket.writable) {
      // The client gave up while the room answered (or we are stopping): nothing to upgrade.
      void watch.close();
      socket.destroy();
      return false;
    }
    this.selected.set(req, version);
    let session: RealtimeSession | undefined;
    // Synchronous without verifyClient: the callback has run (or never will) when it returns.
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      session = new RealtimeSession({
        ws,
        watch,
        caller,
        roomId: request.roomId,
        connectionId,
        requestId,
        resumeAsked: request.resumeAfter !== undefined,
        log,
        commands: this.deps.commands,
        notifications: this.notifications,
        metrics: this.metrics,
        limits: this.limits,
        eventFrame: (event) => this.eventFrame(event),
        onClose: (closed) => {
          this.sessions.delete(closed);
          this.liveness.delete(closed);
          release();
          releaseSlot();
        },
      });
      const opened = session;
      const release = this.deps.connections.hold(caller, (ending) => opened.close(CLOSE.sessionEnded, ending.message));
      this.sessions.add(session);
      this.liveness.add(session);
      this.metrics.accepted.inc();
      log.debug({ version }, 'room socket accepted');
      session.start();
    });
    if (!session) void watch.close();
    return session !== undefined;
  }

  /** R2: the handshake completes with the client's own version entry, then closes 4426 naming ours. */
  private refuseVersion(req: IncomingMessage, socket: Duplex, head: Buffer, offered: string): void {
    this.selected.set(req, offered);
    this.metrics.refused.inc({ status: String(CLOSE.unsupportedVersion) });
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('error', () => undefined);
      ws.close(CLOSE.unsupportedVersion, `${offered} is not supported; this server speaks ${PROTOCOL_VERSIONS.join(', ')}`);
    });
  }

  private async authenticate(request: UpgradeRequest): Promise<Caller> {
    const { accounts } = this.deps;
    if (request.ticket !== undefined) {
      const claims = await this.tickets.take(request.ticket);
      if (!claims) throw new UpgradeRefusal(ticketRefusal(request.roomId, 'the ticket is unknown, expired or already used'));
      if (claims.roomId !== request.roomId) throw new UpgradeRefusal(ticketRefusal(request.roomId, 'the ticket was issued for another room'));
      const caller = await accounts.sessions.resolve(claims.sessionId);
      if (!caller || subjectOf(caller) !== claims.subject) {
        throw new UpgradeRefusal({ status: 401, code: 'unauthenticated', message: 'the session that requested the ticket has ended; sign in again' });
      }
      return caller;
    }
    if (request.bearer !== undefined) {
      const caller = await callerFromToken(request.bearer, accounts.tokens, accounts.sessions);
      if (!caller) {
        throw new UpgradeRefusal({ status: 401, code: 'unauthenticated', message: 'the access token is invalid or expired; refresh it and connect again' });
      }
      return caller;
    }
    throw new UpgradeRefusal(ticketRefusal(request.roomId, 'no credentials (send the Sec-WebSocket-Protocol entry ticket.<ticket>, or Authorization: Bearer from a native client)'));
  }

  /**
   * A refused origin is a deployment problem (a page at an address nobody listed), so it is a
   * warning an operator sees; the rest (expired tickets, caps, left members) are what clients
   * meet in ordinary use, at info. Both name what was asked and why it was refused.
   */
  private logRefusal(log: GatewayDeps['logger'], req: IncomingMessage, refusal: Refusal): void {
    const fields = {
      status: refusal.status,
      code: refusal.code,
      reason: refusal.message,
      origin: req.headers.origin ?? null,
      host: req.headers.host ?? null,
      path: (req.url ?? '').slice(0, 200),
    };
    if (refusal.origin) log.warn(fields, 'room socket refused: origin not allowed');
    else log.info(fields, 'room socket refused');
  }

  /** Writes the refusal as a plain HTTP response and closes the connection (R1). */
  private refuse(socket: Duplex, requestId: string, refusal: Refusal): void {
    this.metrics.refused.inc({ status: String(refusal.status) });
    if (socket.destroyed || !socket.writable) return;
    const body = JSON.stringify({ requestId, status: refusal.status, code: refusal.code, message: refusal.message, ...(refusal.issues ? { issues: refusal.issues } : {}) });
    const headers = [
      `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
      'Connection: close',
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Cache-Control: no-store',
      `${REQUEST_ID_HEADER}: ${requestId}`,
      ...(refusal.status === 405 ? ['Allow: GET'] : []),
      ...(refusal.retryAfterSeconds !== undefined ? [`Retry-After: ${Math.max(1, Math.ceil(refusal.retryAfterSeconds))}`] : refusal.status === 503 ? ['Retry-After: 1'] : []),
    ];
    socket.on('error', () => undefined);
    socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), 5_000).unref();
  }

  /** Encoded once (JSON and UTF-8) per process: each socket sends the same bytes. */
  private eventFrame(event: FeedEvent): SharedFrame {
    let frame = this.eventFrames.get(event);
    if (frame === undefined) {
      const message: EventMessage = { type: 'event', seq: event.seq, at: event.at, event: event.event };
      frame = sharedTextFrame(Buffer.from(JSON.stringify(message), 'utf8'));
      this.eventFrames.set(event, frame);
    }
    return frame;
  }
}
