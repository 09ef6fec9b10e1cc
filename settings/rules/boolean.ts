import type { ValidationResult } from '../definition.js';
import { describeValue } from './describe-value.js';

export const BOOLEAN_RULE = 'true or false';

/** Only a real JSON boolean: "true", 1 and the like are refused rather than guessed at. */
export function checkBoolean(value: unknown): ValidationResult<boolean> {
  if (typeof value === 'boolean') return { ok: true, value };
  return { ok: false, message: `must be true or false, got ${describeValue(value)}` };
}
