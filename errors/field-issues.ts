/**
 * The one mapping from a schema's complaints to `FieldIssue`s (HTTP bodies, WebSocket frames,
 * room commands and gRPC requests all report bad input the same way): each issue is named by its
 * dotted path under `prefix`, and an unknown key is named itself.
 */
import type { z } from 'zod';
import { AppError, type FieldIssue } from './app-error.js';

export function fieldIssuesOf(issues: readonly z.core.$ZodIssue[], prefix: string, whole: string): FieldIssue[] {
  return issues.flatMap((issue): FieldIssue[] => {
    const at = [prefix, ...issue.path.map(String)].filter((part) => part !== '').join('.');
    if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => ({ key: at ? `${at}.${key}` : key, message: 'is not a known field' }));
    return [{ key: at || whole, message: issue.message }];
  });
}

/**
 * Parses with a schema, or throws `invalid_argument` naming every bad field. `prefix` names where
 * the value came from (`query`, `params`; '' for a body); `whole` names the value itself when the
 * problem is with all of it.
 */
export function parseOrInvalid<S extends z.ZodType>(schema: S, value: unknown, prefix = '', whole = prefix || 'body'): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  throw AppError.invalid(fieldIssuesOf(result.error.issues, prefix, whole));
}
