import type { ErrorCode } from '../../../errors/codes.js';
import type { Schemas } from './types.js';

/** An answer of the API other than 2xx, with the documented body (or one made up for a network failure). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string;
  readonly issues: { key: string; message: string }[];

  constructor(body: Schemas['Error']) {
    super(body.message);
    this.name = 'ApiError';
    this.status = body.status;
    this.code = body.code;
    this.requestId = body.requestId;
    this.issues = body.issues ?? [];
  }

  /** The message for one form field (`issues[].key`), if the server named it. */
  issueFor(key: string): string | undefined {
    return this.issues.find((issue) => issue.key === key || issue.key.endsWith(`.${key}`))?.message;
  }
}

/**
 * What each code means to a person, shown above the server's precise message. Typed by the
 * server's list of codes, so a new code cannot ship without its sentence.
 */
export const ERROR_TITLES: Record<ErrorCode, string> = {
  invalid_argument: 'Please check what you entered',
  unauthenticated: 'Please sign in again',
  forbidden: 'You are not allowed to do that',
  not_found: 'Not found',
  conflict: 'That changed in the meantime',
  limit_exceeded: 'A limit was reached',
  payload_too_large: 'That is too large',
  rate_limited: 'Too many attempts: wait a moment and try again',
  signup_disabled: 'Signing up this way is turned off',
  review_pending: 'Waiting for review',
  review_rejected: 'Your request was turned down',
  account_banned: 'This account is banned',
  busy: 'The service is busy: try again in a moment',
  unavailable: 'The service is unavailable right now',
  deadline_exceeded: 'That took too long: try again',
  bad_gateway: 'The media host did not answer properly',
  internal: 'Something went wrong on our side',
};

/** Any thrown value as an ApiError, so views have one shape to show. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const offline = error instanceof TypeError; // fetch rejects with TypeError when the network fails
  return new ApiError({
    requestId: '',
    status: 0,
    code: 'unavailable',
    message: offline ? 'cannot reach the server: check your connection' : error instanceof Error ? error.message : String(error),
  });
}

/** The server's message for one field of a failed request (or none), for `Field`'s `error` prop. */
export function issueFor(error: unknown, key: string): string | undefined {
  return error == null ? undefined : asApiError(error).issueFor(key);
}
