/**
 * The public surface of errors/: what code outside errors/ may import (lint refuses a deeper
 * import; tests may reach inside). docs/2026-11-29-public-surfaces.md.
 */
export { AppError, httpStatusOf, isAppError, type ErrorCode, type FieldIssue } from './app-error.js';
export { fieldIssuesOf, parseOrInvalid } from './field-issues.js';
export { retryWhileUnavailable } from './retry-while-unavailable.js';
