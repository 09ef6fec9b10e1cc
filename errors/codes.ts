/**
 * The stable error codes every interface reports, and their HTTP statuses. A leaf module
 * (no Node or server imports) so the public API contracts, the CLI and the web client can
 * share it. docs/2026-11-23-api-conventions.md lists what each code means to a client.
 */
export const ERROR_CODES = [
  'invalid_argument',
  'unauthenticated',
  'forbidden',
  'not_found',
  'conflict',
  'limit_exceeded',
  'payload_too_large',
  'rate_limited',
  'signup_disabled',
  'review_pending',
  'review_rejected',
  'account_banned',
  'busy',
  'unavailable',
  'deadline_exceeded',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 429,
  payload_too_large: 413,
  rate_limited: 429,
  signup_disabled: 403,
  review_pending: 403,
  review_rejected: 403,
  account_banned: 403,
  busy: 503,
  unavailable: 503,
  deadline_exceeded: 504,
  internal: 500,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
