import type { ErrorCode } from '../../../contracts/errors.js';
import type { ParseKeys } from 'i18next';
import { t } from '../i18n/i18n.js';
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
 * What each code means to a person, shown above the server's precise message: the catalogue key
 * of its title, or null where the server's messages under that code already say what happened in
 * their own words (a wrong room password, a seek in media that cannot seek, a name that is taken),
 * so a general title above them would read wrong. Typed by the server's list of codes, so a new
 * code cannot ship without a decision here.
 */
const ERROR_TITLES: Record<ErrorCode, ParseKeys | null> = {
  invalid_argument: 'errors.titles.invalid_argument',
  unauthenticated: null,
  forbidden: null,
  not_found: null,
  conflict: null,
  // "email is not configured on this server": the message says what is missing.
  failed_precondition: null,
  limit_exceeded: 'errors.titles.limit_exceeded',
  payload_too_large: 'errors.titles.payload_too_large',
  // The wait itself is the Retry-After line under the message (minutes, for some limits).
  rate_limited: 'errors.titles.rate_limited',
  signup_disabled: 'errors.titles.signup_disabled',
  review_pending: 'errors.titles.review_pending',
  review_rejected: 'errors.titles.review_rejected',
  account_banned: 'errors.titles.account_banned',
  busy: 'errors.titles.busy',
  // Embedded subtitles and subtitle files while the server's tools are all in use; the Retry-After line says when.
  resource_exhausted: 'errors.titles.resource_exhausted',
  // Also "not configured on this server" (email, passkeys), not only an outage.
  unavailable: 'errors.titles.unavailable',
  deadline_exceeded: 'errors.titles.deadline_exceeded',
  // Media hosts, an Alist server, the replica holding a livestream: the message names which.
  bad_gateway: 'errors.titles.bad_gateway',
  internal: 'errors.titles.internal',
};

/** The title for an error code in the page's language, or null (see ERROR_TITLES). */
export function errorTitle(code: ErrorCode): string | null {
  const key = ERROR_TITLES[code];
  return key === null ? null : t(key);
}

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

/** Any thrown value as an ApiError, so views have one shape to show. */
export function asApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const offline = error instanceof TypeError; // fetch rejects with TypeError when the network fails
  return new ApiError({
    requestId: '',
    status: 0,
    code: 'unavailable',
    message: offline ? t('errors.offline') : error instanceof Error ? error.message : String(error),
  });
}

/** The server's message for one field of a failed request (or none), for `Field`'s `error` prop. */
export function issueFor(error: unknown, key: string): string | undefined {
  return error == null ? undefined : asApiError(error).issueFor(key);
}
