import type { ValidationResult } from '../definition.js';
import { describeValue, quote } from './describe-value.js';
import { parseHostPort } from './host-port.js';

/**
 * `rtmp.customPublishHost`: the host[:port] handed to stream publishers instead of the
 * server's own address (for example a load balancer in front of RTMP ingest). Empty means
 * "use the server's address". The service builds the rtmp:// URL itself, so a scheme or
 * path here would end up doubled in the URL publishers are given.
 */
export const PUBLISH_HOST_RULE = 'empty, or host[:port] without scheme or path';

export function checkPublishHost(value: unknown): ValidationResult<string> {
  if (typeof value !== 'string') {
    return { ok: false, message: `must be a string (${PUBLISH_HOST_RULE}), got ${describeValue(value)}` };
  }
  if (value === '') return { ok: true, value };
  const shown = quote(value);
  if (value.includes('://')) {
    return { ok: false, message: `must be host[:port] without a scheme; ${shown} has one (drop "${value.slice(0, value.indexOf('://') + 3)}")` };
  }
  if (/[/?#]/.test(value)) {
    return { ok: false, message: `must be host[:port] without a path, query or fragment; ${shown} has one` };
  }
  if (value.includes('@')) {
    return { ok: false, message: `must be host[:port] without user information; ${shown} contains "@"` };
  }
  const parsed = parseHostPort(value);
  if (!parsed.ok) return { ok: false, message: `must be host[:port], got ${shown}: ${parsed.problem}` };
  return { ok: true, value };
}
