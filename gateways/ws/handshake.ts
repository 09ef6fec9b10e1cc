/**
 * What an upgrade request asks for, read before anything is spent: the room from the path, the
 * protocol versions, ticket and resume point from `Sec-WebSocket-Protocol`, a bearer token from
 * `Authorization`, and whether its `Origin` is one we serve. Everything here throws AppError;
 * the gateway turns that into an HTTP refusal written on the raw socket (R1).
 */
import type { IncomingMessage } from 'node:http';
import { AppError } from '../../errors/index.js';
import type { ErrorCode } from '../../contracts/errors.js';
import { checkBareOrigin } from '../../net/index.js';
import { isSameOrigin, type ReachedAs } from '../../net/index.js';
import { bearerToken } from '../bearer.js';
import { RESUME_ENTRY_PREFIX, TICKET_ENTRY_PREFIX, VERSION_ENTRY } from '../../contracts/ws/protocol.js';

const PATH = /^\/api\/rooms\/([A-Za-z0-9_-]{1,128})\/realtime$/;
const TICKET = /^[A-Za-z0-9_-]{16,128}$/;
const SEQ = /^(0|[1-9][0-9]{0,15})$/;
const WS_KEY = /^[+/0-9A-Za-z]{22}==$/;

/** An HTTP refusal before the upgrade, in the API's error shape. */
export interface Refusal {
  status: number;
  code: ErrorCode;
  message: string;
  issues?: Array<{ key: string; message: string }>;
  /** Sent as Retry-After (a refusal that passes: a cap, a restart). */
  retryAfterSeconds?: number;
  /** Refused for its Origin: logged as a warning (a page at an address nobody allowed). */
  origin?: true;
}

export class UpgradeRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.message);
  }
}

export function refusalOf(err: unknown): Refusal | undefined {
  if (err instanceof UpgradeRefusal) return err.refusal;
  if (err instanceof AppError) {
    return {
      status: err.status,
      code: err.code,
      message: err.message,
      ...(err.issues.length > 0 ? { issues: err.issues } : {}),
      ...(err.retryAfterSeconds !== undefined ? { retryAfterSeconds: err.retryAfterSeconds } : {}),
    };
  }
  return undefined;
}

export interface UpgradeRequest {
  roomId: string;
  /** The `svc.v<N>` entries offered, in the client's order. */
  versions: string[];
  ticket?: string;
  bearer?: string;
  resumeAfter?: number;
  origin?: string;
}

/**
 * Reads an upgrade request; throws a refusal for a path that is not a room socket (404), a
 * method other than GET (405), a malformed WebSocket handshake or protocol list (400).
 */
export function readUpgrade(req: IncomingMessage): UpgradeRequest {
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  const match = PATH.exec(url.pathname);
  if (!match) throw new UpgradeRefusal({ status: 404, code: 'not_found', message: `no WebSocket endpoint at ${url.pathname.slice(0, 200)}; rooms are at /api/rooms/{roomId}/realtime` });
  if (req.method !== 'GET') throw new UpgradeRefusal({ status: 405, code: 'not_found', message: `${req.method} is not allowed; open the socket with GET` });
  checkWebSocketHeaders(req);

  const request: UpgradeRequest = { roomId: match[1]!, versions: [] };
  for (const entry of protocolEntries(req.headers['sec-websocket-protocol'])) {
    if (VERSION_ENTRY.test(entry)) {
      request.versions.push(entry);
    } else if (entry.startsWith(TICKET_ENTRY_PREFIX)) {
      const ticket = entry.slice(TICKET_ENTRY_PREFIX.length);
      if (request.ticket !== undefined) throw invalid('more than one ticket entry');
      if (!TICKET.test(ticket)) throw new UpgradeRefusal(ticketRefusal(request.roomId, 'the ticket is malformed'));
      request.ticket = ticket;
    } else if (entry.startsWith(RESUME_ENTRY_PREFIX)) {
      const seq = entry.slice(RESUME_ENTRY_PREFIX.length);
      if (request.resumeAfter !== undefined) throw invalid('more than one resume entry');
      if (!SEQ.test(seq) || !Number.isSafeInteger(Number(seq))) throw invalid(`"${entry.slice(0, 40)}" is not resume.<seq> with a non-negative integer seq`);
      request.resumeAfter = Number(seq);
    } else {
      throw invalid(`unknown entry "${entry.slice(0, 24)}"; expected svc.v<N>, ticket.<ticket> or resume.<seq>`);
    }
  }
  if (request.versions.length === 0) throw invalid('offer a protocol version, for example "svc.v1"');

  const authorization = req.headers.authorization;
  if (authorization !== undefined) {
    const bearer = bearerToken(authorization);
    if (bearer === undefined) throw new UpgradeRefusal({ status: 401, code: 'unauthenticated', message: 'the Authorization header must be "Bearer <access token>"' });
    request.bearer = bearer;
  }
  const origin = req.headers.origin;
  if (origin !== undefined) request.origin = origin;
  return request;
}

/** The 401 for a ticket that cannot be used, telling the client what to do. */
export function ticketRefusal(roomId: string, why: string): Refusal {
  return {
    status: 401,
    code: 'unauthenticated',
    message: `${why}: request a new ticket with POST /api/rooms/${roomId}/realtime/ticket (tickets are single-use and expire after about 30 s)`,
  };
}

function invalid(message: string): UpgradeRefusal {
  return new UpgradeRefusal({ status: 400, code: 'invalid_argument', message: `Sec-WebSocket-Protocol: ${message}`, issues: [{ key: 'Sec-WebSocket-Protocol', message }] });
}

function protocolEntries(header: string | undefined): string[] {
  if (header === undefined) return [];
  const entries = header.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(entry))) throw invalid('is not a comma-separated list of tokens');
  return entries;
}

/** What `ws` would refuse itself; checked first so that nothing (a ticket, presence) is spent on a handshake that cannot complete. */
function checkWebSocketHeaders(req: IncomingMessage): void {
  const key = req.headers['sec-websocket-key'];
  const version = req.headers['sec-websocket-version'];
  const bad = (message: string) => new UpgradeRefusal({ status: 400, code: 'invalid_argument', message, issues: [{ key: 'headers', message }] });
  if (req.headers.upgrade?.toLowerCase() !== 'websocket') throw bad('the Upgrade header must be "websocket"');
  if (key === undefined || !WS_KEY.test(key)) throw bad('missing or invalid Sec-WebSocket-Key');
  if (version !== '13') throw bad('Sec-WebSocket-Version must be 13');
}

/**
 * The origins a room socket accepts (R1): the page's own origin, however the browser reached
 * the service (Origin's host and port equal to the request's Host: net/same-origin.ts), the
 * startup CORS list, and the configured own origin (`server.public_url`, else
 * `webauthn.rp_origin`). Browsers always send `Origin` on a WebSocket, so a request without
 * one is a native client: it must then authenticate with a bearer token (a ticket is for
 * browsers, and a browser page's ticket must come with its origin).
 */
export class OriginPolicy {
  readonly allowed: ReadonlySet<string>;

  constructor(corsAllowedOrigins: readonly string[], ownUrl: string) {
    const allowed = new Set<string>();
    for (const origin of corsAllowedOrigins) {
      const check = checkBareOrigin(origin);
      if (check.ok) allowed.add(check.origin);
    }
    try {
      if (ownUrl) allowed.add(new URL(ownUrl).origin);
    } catch {
      // The config loader validates it; an unparsable value adds nothing.
    }
    this.allowed = allowed;
  }

  check(request: Pick<UpgradeRequest, 'origin' | 'bearer'>, reached: ReachedAs = { host: undefined, scheme: undefined }): void {
    if (request.origin === undefined) {
      if (request.bearer !== undefined) return;
      throw new UpgradeRefusal({
        status: 403,
        code: 'forbidden',
        message: 'no Origin header: browsers connect from an allowed origin with a ticket; native clients send Authorization: Bearer <access token>',
      });
    }
    if (this.allowed.has(request.origin) || isSameOrigin(request.origin, reached)) return;
    throw new UpgradeRefusal({
      status: 403,
      code: 'forbidden',
      origin: true,
      message:
        `origin ${request.origin.slice(0, 200)} is not allowed to open room sockets: it is not the address this request was sent to ` +
        `(${(reached.host ?? 'no Host header').slice(0, 200)}) and not listed in server.cors_allowed_origins`,
    });
  }
}
