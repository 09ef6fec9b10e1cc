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
  /** The server is not set up for this (email without SMTP): no retry helps until an operator changes it. */
  'failed_precondition',
  'limit_exceeded',
  'payload_too_large',
  'rate_limited',
  'signup_disabled',
  'review_pending',
  'review_rejected',
  'account_banned',
  'busy',
  /** The server's capacity for one kind of work (media tools, subtitle workers) is in use: retry after Retry-After. */
  'resource_exhausted',
  'unavailable',
  'deadline_exceeded',
  /** An upstream (a media host, another replica) failed or answered something unusable. */
  'bad_gateway',
  'internal',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_argument: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  // RFC 9110's 409: the request conflicts with the state of the server (its configuration).
  failed_precondition: 409,
  limit_exceeded: 429,
  payload_too_large: 413,
  rate_limited: 429,
  signup_disabled: 403,
  review_pending: 403,
  review_rejected: 403,
  account_banned: 403,
  busy: 503,
  resource_exhausted: 503,
  unavailable: 503,
  deadline_exceeded: 504,
  bad_gateway: 502,
  internal: 500,
};

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}

/**
 * The gRPC status of each code, by the status's name (the numbers are fixed by gRPC and
 * resolved in `gateways/grpc/status.ts`). Clients that need more than the status read the code
 * itself from the `svc-error-code` trailer. docs/2026-11-23-grpc-api.md explains each choice.
 */
export const GRPC_STATUS = {
  invalid_argument: 'INVALID_ARGUMENT',
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'PERMISSION_DENIED',
  not_found: 'NOT_FOUND',
  // Stale guards, "nothing selected", a livestream seek, a taken id: the state must change first.
  conflict: 'FAILED_PRECONDITION',
  failed_precondition: 'FAILED_PRECONDITION',
  limit_exceeded: 'RESOURCE_EXHAUSTED',
  // What gRPC itself answers for a message over the size limit.
  payload_too_large: 'RESOURCE_EXHAUSTED',
  rate_limited: 'RESOURCE_EXHAUSTED',
  signup_disabled: 'PERMISSION_DENIED',
  review_pending: 'PERMISSION_DENIED',
  review_rejected: 'PERMISSION_DENIED',
  account_banned: 'PERMISSION_DENIED',
  busy: 'UNAVAILABLE',
  resource_exhausted: 'RESOURCE_EXHAUSTED',
  unavailable: 'UNAVAILABLE',
  deadline_exceeded: 'DEADLINE_EXCEEDED',
  bad_gateway: 'UNAVAILABLE',
  internal: 'INTERNAL',
} as const satisfies Record<ErrorCode, string>;
