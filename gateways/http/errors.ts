import { STATUS_CODES } from 'node:http';
import Koa, { type Middleware } from 'koa';
import type { ErrorBody } from '../../contracts/http/error-body.js';
import { isAppError, type ErrorCode, type FieldIssue } from '../../errors/index.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import type { HttpContext, HttpState } from './state.js';

/** The body of every HTTP error response (`/health/ready` diagnostics are not errors): the contract's `Error`. */
export type { ErrorBody };

interface Problem {
  status: number;
  code: ErrorCode;
  message: string;
  issues: FieldIssue[];
  /** Headers the error asks for, such as `Allow` on a 405. */
  headers: Record<string, string>;
}

const INTERNAL_MESSAGE = 'internal error; quote the request id when reporting it';

/**
 * Turns anything thrown below it, and any error status left without a body (no route
 * matched, method not allowed), into the documented error body. Sits inside the request-id
 * and CORS middleware, so an error response keeps their headers and browsers can read it.
 */
export function errorResponses(): Middleware<HttpState> {
  return async (ctx, next) => {
    // Headers set by outer middleware (request id, CORS) belong on the error response too;
    // anything a failed handler set (cookies, caching, content headers) does not.
    const outerHeaders = { ...ctx.response.headers };
    try {
      await next();
    } catch (err) {
      const problem = problemOf(err);
      logProblem(ctx, problem, err);
      if (ctx.headerSent || !ctx.writable) {
        // Part of a body is already on the wire; the only honest signal left is a cut connection.
        ctx.respond = false;
        ctx.res.destroy();
        return;
      }
      // Nothing sent yet: Koa answers with the error, even for a handler that meant to write itself.
      ctx.respond = true;
      for (const name of ctx.res.getHeaderNames()) ctx.res.removeHeader(name);
      for (const [name, value] of Object.entries(outerHeaders)) {
        if (typeof value === 'string' || typeof value === 'number' || Array.isArray(value)) {
          ctx.set(name, Array.isArray(value) ? value.map(String) : String(value));
        }
      }
      for (const [name, value] of Object.entries(problem.headers)) ctx.set(name, value);
      writeBody(ctx, problem);
      return;
    }

    // Here the headers were set on purpose (the router's Allow on a 405) and are kept.
    if (ctx.respond !== false && ctx.status >= 400 && ctx.body == null) {
      const problem = bodilessProblem(ctx);
      logProblem(ctx, problem);
      writeBody(ctx, problem);
    }
  };
}

/**
 * Logged at warn, so the error level holds this service's own faults:
 * - another server failing (a media host a member named, a library server: bad_gateway): a URL
 *   whose host does not resolve, added by anyone, would otherwise write an error line per play;
 * - a dependency that cannot be reached now (unavailable): PostgreSQL failing over answers
 *   dozens of 503s a second per gateway, while /health/ready and the dependency's own log and
 *   metrics already say so.
 * deadline_exceeded stays an error: a room actor too slow to answer is ours.
 */
const NOT_OURS: ReadonlySet<string> = new Set(['bad_gateway', 'unavailable']);

function logProblem(ctx: HttpContext, problem: Problem, err?: unknown): void {
  const fields = { status: problem.status, code: problem.code };
  if (problem.status >= 500 && NOT_OURS.has(problem.code)) ctx.state.log.warn({ ...fields, reason: problem.message }, 'request failed');
  else if (problem.status >= 500) ctx.state.log.error({ ...fields, err }, 'request failed');
  else ctx.state.log.debug({ ...fields, reason: problem.message }, 'request rejected');
}

function writeBody(ctx: HttpContext, problem: Problem): void {
  const body: ErrorBody = {
    requestId: ctx.state.requestId,
    status: problem.status,
    code: problem.code,
    message: problem.message,
    ...(problem.issues.length > 0 ? { issues: problem.issues } : {}),
  };
  ctx.status = problem.status;
  ctx.body = body;
}

function bodilessProblem(ctx: HttpContext): Problem {
  const status = ctx.status;
  const problem = { status, code: codeForStatus(status), issues: [], headers: {} };
  if (status === 404) return { ...problem, message: `no route for ${ctx.method} ${ctx.path}` };
  if (status === 405) {
    const allowed = ctx.response.get('Allow');
    return { ...problem, message: `${ctx.method} is not allowed on ${ctx.path}${allowed ? ` (allowed: ${allowed})` : ''}` };
  }
  return { ...problem, message: genericMessage(status) };
}

function problemOf(thrown: unknown): Problem {
  // A database that cannot be reached (restart, failover) is a 503 to retry, not a defect.
  const err = classifyDatabaseError(thrown, 'request', { detail: false });
  if (isAppError(err)) {
    const headers: Record<string, string> = err.retryAfterSeconds === undefined ? {} : { 'Retry-After': String(Math.max(1, Math.ceil(err.retryAfterSeconds))) };
    return { status: err.status, code: err.code, message: err.message, issues: err.issues, headers };
  }
  if (err instanceof Koa.HttpError) {
    const status = err.status >= 400 && err.status <= 599 ? err.status : 500;
    return {
      status,
      code: codeForStatus(status),
      // http-errors marks 4xx messages as safe to show; 5xx ones may carry internals.
      message: err.expose && status < 500 ? err.message : genericMessage(status),
      issues: [],
      headers: stringHeaders(err.headers),
    };
  }
  return { status: 500, code: 'internal', message: INTERNAL_MESSAGE, issues: [], headers: {} };
}

function genericMessage(status: number): string {
  if (status === 500) return INTERNAL_MESSAGE;
  return (STATUS_CODES[status] ?? 'request failed').toLowerCase();
}

/**
 * Koa and its libraries answer with plain HTTP statuses (an unparsable body, the router's
 * 405/501); the status is kept and mapped onto the same stable code set AppError uses.
 */
export function codeForStatus(status: number): ErrorCode {
  switch (status) {
    case 401:
      return 'unauthenticated';
    case 403:
      return 'forbidden';
    case 404:
    case 405:
    case 410:
    case 501:
      return 'not_found';
    case 408:
    case 504:
      return 'deadline_exceeded';
    case 409:
    case 412:
      return 'conflict';
    case 413:
      return 'payload_too_large';
    case 429:
      return 'rate_limited';
    case 503:
      return 'unavailable';
    default:
      return status < 500 ? 'invalid_argument' : 'internal';
  }
}

function stringHeaders(headers: unknown): Record<string, string> {
  if (headers === null || typeof headers !== 'object') return {};
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string' || typeof value === 'number') out[name] = String(value);
  }
  return out;
}
