import type { FieldIssue } from '../../errors/index.js';

/**
 * Reads single-valued query parameters of a management request: a parameter given twice is
 * an issue (collected, so every problem is reported at once) and an empty one is absent.
 */
export function singleParams(query: Record<string, string | string[] | undefined>, issues: FieldIssue[]): (key: string) => string | undefined {
  return (key) => {
    const value = query[key];
    if (Array.isArray(value)) {
      issues.push({ key, message: 'may be given once' });
      return undefined;
    }
    return value === undefined || value === '' ? undefined : value;
  };
}
