import type { ValidationResult } from '../definition.js';
import { checkBareOrigin } from '../../net/index.js';
import { describeValue } from './describe-value.js';

/**
 * `cors.allowedOrigins`: the origins allowed by CORS on proxy-related paths, separate from
 * the startup list `server.cors_allowed_origins`. Values are stored in canonical form (as
 * browsers send them in `Origin`), so matching is a plain string comparison.
 */
export const CORS_ORIGINS_RULE = 'JSON array of distinct bare origins (scheme://host[:port])';

export function checkCorsOrigins(value: unknown): ValidationResult<string[]> {
  if (!Array.isArray(value)) {
    return { ok: false, message: `must be a ${CORS_ORIGINS_RULE}, got ${describeValue(value)}` };
  }
  const origins: string[] = [];
  const firstIndex = new Map<string, number>();
  for (const [index, entry] of value.entries()) {
    if (typeof entry !== 'string') {
      return { ok: false, message: `element ${index}: must be an origin string, got ${describeValue(entry)}` };
    }
    const checked = checkBareOrigin(entry);
    if (!checked.ok) return { ok: false, message: `element ${index}: ${checked.message}` };
    const earlier = firstIndex.get(checked.origin);
    if (earlier !== undefined) {
      return { ok: false, message: `element ${index}: ${JSON.stringify(checked.origin)} duplicates element ${earlier}` };
    }
    firstIndex.set(checked.origin, index);
    origins.push(checked.origin);
  }
  return { ok: true, value: origins };
}
