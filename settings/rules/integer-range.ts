import type { ValidationResult } from '../definition.js';
import { describeValue } from './describe-value.js';

/**
 * An inclusive integer range. The spec's i64/u64 types are held as JS numbers, so only safe
 * integers are accepted: beyond 2^53 a number no longer means what the operator typed.
 */
export interface IntegerRange {
  readonly min: number;
  readonly max: number;
  /** For caps where 0 switches the limit off, as the spec says for chat message caps. */
  readonly zeroMeansUnlimited?: boolean;
}

export function integerRangeRule(range: IntegerRange): string {
  const bounds = `${range.min}..=${range.max}`;
  return range.zeroMeansUnlimited ? `${bounds} (0 means unlimited)` : bounds;
}

export function checkIntegerInRange(value: unknown, range: IntegerRange): ValidationResult<number> {
  const ok =
    typeof value === 'number' && Number.isSafeInteger(value) && value >= range.min && value <= range.max;
  if (ok) {
    // -0 is a safe integer that would otherwise be stored and shown as "-0".
    return { ok: true, value: value === 0 ? 0 : value };
  }
  return {
    ok: false,
    message: `must be an integer in ${integerRangeRule(range)}, got ${describeValue(value)}`,
  };
}
