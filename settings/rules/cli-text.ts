import type { ValidationResult } from '../definition.js';
import { quote } from './describe-value.js';

/**
 * Decoding of the CLI text form (`svc settings update --set key=value`). Deliberately
 * narrower than JavaScript's own coercions: `Number("1e3")`, `Number("")` and
 * `parseInt("12abc")` all produce numbers an operator did not mean.
 */
const DECIMAL_INTEGER = /^-?[0-9]+$/;

export function parseBooleanText(raw: string): ValidationResult<boolean> {
  if (raw === 'true') return { ok: true, value: true };
  if (raw === 'false') return { ok: true, value: false };
  return { ok: false, message: `must be true or false, got ${quote(raw)}` };
}

/** `rule` is the range text of the setting, so the message says what would have been accepted. */
export function parseIntegerText(raw: string, rule: string): ValidationResult<number> {
  if (!DECIMAL_INTEGER.test(raw)) {
    return { ok: false, message: `must be an integer in ${rule}, got ${quote(raw)} (not a decimal integer)` };
  }
  const value = Number(raw);
  if (!Number.isSafeInteger(value)) {
    return { ok: false, message: `must be an integer in ${rule}, got ${quote(raw)} (too large)` };
  }
  return { ok: true, value };
}

/** `example` is a short valid value, shown when the text is not JSON at all. */
export function parseJsonText(raw: string, example: string): ValidationResult<unknown> {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (err) {
    const reason = err instanceof SyntaxError ? err.message : String(err);
    return { ok: false, message: `is not valid JSON (${reason}); expected JSON such as ${example}` };
  }
}
