import type { ErrorCode } from '../../../contracts/errors.js';
import type { Schemas } from './types.js';

/** The documented error body, as HTTP sends it or a socket frame carries it (there, absent issues may read undefined). */
type ErrorBody = Omit<Schemas['Error'], 'issues'> & { issues?: Schemas['Error']['issues'] | undefined };

/** An answer of the API other than 2xx, with the documented body (or one made up for a network failure). */
export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly requestId: string;
  readonly issues: { key: string; message: string }[];
  /** The answer's Retry-After, in seconds, when it had one (rate limits, a busy service). */
  readonly retryAfterSeconds: number | undefined;

  constructor(body: ErrorBody, retryAfterSeconds?: number) {
    super(body.message);
    this.name = 'ApiError';
    this.status = body.status;
    this.code = body.code;
    this.requestId = body.requestId;
    this.issues = body.issues ?? [];
    this.retryAfterSeconds = retryAfterSeconds;
  }

  /** The message for one form field (`issues[].key`), if the server named it. */
  issueFor(key: string): string | undefined {
    return this.issues.find((issue) => issue.key === key || issue.key.endsWith(`.${key}`))?.message;
  }
}

/**
 * What each code means to a person, shown above the server's precise message; null where the
 * server's messages under that code already say what happened in their own words (a wrong room
 * password, a seek in media that cannot seek, a name that is taken), so a general title above
 * them would read wrong. Typed by the server's list of codes, so a new code cannot ship without
 * a decision here.
 */
export const ERROR_TITLES: Record<ErrorCode, string | null> = {
  invalid_argument: 'Please check what you entered',
  unauthenticated: null,
  forbidden: null,
  not_found: null,
  conflict: null,
  limit_exceeded: 'A limit was reached',
  payload_too_large: 'That is too large',
  // The wait itself is the Retry-After line under the message (minutes, for some limits).
  rate_limited: 'Too many attempts',
  signup_disabled: 'Signing up this way is turned off',
  review_pending: 'Waiting for review',
  review_rejected: 'Your request was turned down',
  account_banned: 'This account is banned',
  busy: 'The service is busy: try again in a moment',
  // Also "not configured on this server" (email, passkeys), not only an outage.
  unavailable: 'Not available',
  deadline_exceeded: 'That took too long: try again',
  // Media hosts, an Alist server, the replica holding a livestream: the message names which.
  bad_gateway: 'Another server did not answer as expected',
  internal: 'Something went wrong on our side',
};

/**
 * A server message as a sentence: its first letter capitalised when the first word is a plain
 * lowercase word (never an id, a quoted title or a setting key, which keep their spelling).
 */
export function asSentence(message: string): string {
  return /^[a-z]+\b(?![._-])/.test(message) ? message.charAt(0).toUpperCase() + message.slice(1) : message;
}

/** A Retry-After header in seconds (the delta form; an HTTP date is converted), or undefined. */
export function retryAfterOf(response: Response): number | undefined {
  const header = response.headers.get('retry-after');
  if (!header) return undefined;
  const seconds = /^\d+$/.test(header) ? Number(header) : (Date.parse(header) - Date.now()) / 1000;
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : undefined;
}

/** "in 42 seconds", "in 3 minutes", "in about 2 hours": when a waiting person may try again. */
export function inWords(seconds: number): string {
  const whole = Math.max(1, Math.round(seconds));
  if (seconds < 90) return `in ${whole} second${whole === 1 ? '' : 's'}`;
  if (seconds < 90 * 60) return `in ${Math.round(seconds / 60)} minutes`;
  return `in about ${Math.round(seconds / 3600)} hour${Math.round(seconds / 3600) === 1 ? '' : 's'}`;
}

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
