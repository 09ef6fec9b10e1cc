/**
 * AppError to a gRPC status. The status comes from the one table `GRPC_STATUS` in
 * `errors/codes.ts` (beside the HTTP one); the stable code, the request id and the field
 * issues travel in trailing metadata, so a client switches on `svc-error-code` exactly as an
 * HTTP client switches on the body's `code`. Internal errors say nothing about their cause.
 */
import * as grpc from '@grpc/grpc-js';
import { AppError, isAppError, type FieldIssue } from '../../errors/index.js';
import { classifyDatabaseError } from '../../postgres/index.js';
import { GRPC_STATUS, isErrorCode, type ErrorCode } from '../../contracts/errors.js';

export const ERROR_CODE_KEY = 'svc-error-code';
export const REQUEST_ID_KEY = 'svc-request-id';
/** JSON array of `{key, message}` (UTF-8 bytes: a `-bin` key may carry any text). */
export const ERROR_ISSUES_KEY = 'svc-error-issues-bin';
/** For `rate_limited`: seconds until a retry may succeed (HTTP's Retry-After). */
export const RETRY_AFTER_KEY = 'svc-retry-after-seconds';

const INTERNAL_MESSAGE = 'internal error; quote the request id when reporting it';

export function grpcStatusOf(code: ErrorCode): grpc.status {
  return grpc.status[GRPC_STATUS[code]];
}

/** What the server sends for an error: the status, the message, and the svc-* trailers. */
export function serviceErrorOf(thrown: unknown, requestId: string): Partial<grpc.StatusObject> & { code: grpc.status; details: string; metadata: grpc.Metadata } {
  // A database that cannot be reached (restart, failover) is UNAVAILABLE to retry, not a defect.
  const err = classifyDatabaseError(thrown, 'call', { detail: false });
  const appError = isAppError(err) ? err : undefined;
  const code: ErrorCode = appError?.code ?? 'internal';
  const metadata = new grpc.Metadata();
  metadata.set(ERROR_CODE_KEY, code);
  metadata.set(REQUEST_ID_KEY, requestId);
  if (appError && appError.issues.length > 0) metadata.set(ERROR_ISSUES_KEY, Buffer.from(JSON.stringify(appError.issues)));
  if (appError?.retryAfterSeconds !== undefined) metadata.set(RETRY_AFTER_KEY, String(Math.max(1, Math.ceil(appError.retryAfterSeconds))));
  const details = appError && code !== 'internal' ? appError.message : INTERNAL_MESSAGE;
  return { code: grpcStatusOf(code), details, metadata };
}

/** The client side: an AppError with the code, message, issues and request id of a failed call. */
export class GrpcCallError extends AppError {
  readonly grpcStatus: grpc.status;
  readonly requestId: string | undefined;

  constructor(err: grpc.ServiceError) {
    const metadata = err.metadata ?? new grpc.Metadata();
    const raw = metadata.get(ERROR_CODE_KEY)[0];
    const code: ErrorCode = isErrorCode(raw) ? raw : codeOfStatus(err.code);
    const issuesRaw = metadata.get(ERROR_ISSUES_KEY)[0];
    let issues: FieldIssue[] = [];
    if (Buffer.isBuffer(issuesRaw)) issues = JSON.parse(issuesRaw.toString('utf8')) as FieldIssue[];
    const retryAfter = metadata.get(RETRY_AFTER_KEY)[0];
    super(code, err.details, issues, {
      cause: err,
      ...(typeof retryAfter === 'string' ? { retryAfterSeconds: Number(retryAfter) } : {}),
    });
    this.name = 'GrpcCallError';
    this.grpcStatus = err.code;
    const requestId = metadata.get(REQUEST_ID_KEY)[0];
    this.requestId = typeof requestId === 'string' ? requestId : undefined;
  }
}

/** For statuses that did not come from our handlers (no code trailer: transport, deadline, cancel). */
function codeOfStatus(status: grpc.status): ErrorCode {
  switch (status) {
    case grpc.status.DEADLINE_EXCEEDED:
      return 'deadline_exceeded';
    case grpc.status.UNAVAILABLE:
      return 'unavailable';
    case grpc.status.UNAUTHENTICATED:
      return 'unauthenticated';
    case grpc.status.NOT_FOUND:
    case grpc.status.UNIMPLEMENTED:
      return 'not_found';
    case grpc.status.RESOURCE_EXHAUSTED:
      return 'payload_too_large';
    case grpc.status.INVALID_ARGUMENT:
      return 'invalid_argument';
    default:
      return 'internal';
  }
}
