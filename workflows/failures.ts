/**
 * Our errors as Temporal failures. An activity that fails with an AppError fails with an
 * `ApplicationFailure` whose `type` is the error code, so the workflow, the Temporal UI and
 * the history all show the same stable code. Codes that are a final answer (the input is
 * wrong, the thing is gone, the caller may not, the state says no) are not retried; only
 * transient ones (`unavailable`, `busy`, `deadline_exceeded`, `rate_limited`) and
 * `internal` are, as are errors that are not AppErrors (a dropped connection, a bug).
 */
import { ApplicationFailure } from '@temporalio/common';
import { isAppError, type ErrorCode } from '../errors/index.js';

const RETRYABLE_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['unavailable', 'busy', 'resource_exhausted', 'deadline_exceeded', 'rate_limited', 'internal']);

export function isRetryableCode(code: ErrorCode): boolean {
  return RETRYABLE_CODES.has(code);
}

/** The failure an activity throws for `err`: an ApplicationFailure for an AppError, else `err` itself. */
export function toActivityFailure(err: unknown): unknown {
  if (!isAppError(err)) return err;
  return ApplicationFailure.create({
    type: err.code,
    message: err.message,
    nonRetryable: !isRetryableCode(err.code),
    ...(err.issues.length > 0 ? { details: [err.issues] } : {}),
    cause: err,
  });
}

/** Runs `fn`, rethrowing its AppError as an ApplicationFailure. */
export async function asActivity<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toActivityFailure(err);
  }
}
