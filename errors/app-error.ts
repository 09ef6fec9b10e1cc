import { HTTP_STATUS, type ErrorCode } from '../contracts/errors.js';

export type { ErrorCode };

/** One problem with one named field or key; several are reported together. */
export interface FieldIssue {
  /** Dotted key or field name, for example `server.maxRoomsPerUser` or `jwt.secret`. */
  key: string;
  message: string;
}

export interface AppErrorOptions {
  /** For `rate_limited` (and `limit_exceeded` of a cap that frees up): when the caller may try again (HTTP `Retry-After`). */
  retryAfterSeconds?: number;
  cause?: unknown;
}

/**
 * The one error type that crosses module boundaries. Gateways map it to the documented
 * HTTP shape `{requestId, status, code, message}`; the CLI prints `code: message`.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues: FieldIssue[];
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, issues: FieldIssue[] = [], options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = HTTP_STATUS[code];
    this.issues = issues;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }

  /** A validation failure naming every offending key, first one first in the message. */
  static invalid(issues: FieldIssue[]): AppError {
    const [first] = issues;
    const head = first ? `${first.key}: ${first.message}` : 'invalid input';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    return new AppError('invalid_argument', head + more, issues);
  }

  toJSON(): { code: ErrorCode; status: number; message: string; issues?: FieldIssue[] } {
    return {
      code: this.code,
      status: this.status,
      message: this.message,
      ...(this.issues.length > 0 ? { issues: this.issues } : {}),
    };
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}

export function httpStatusOf(code: ErrorCode): number {
  return HTTP_STATUS[code];
}
