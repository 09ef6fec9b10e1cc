/**
 * The body of every HTTP error (`{requestId, status, code, message}`), one stable `code` from
 * contracts/errors.ts. A leaf module (zod and error codes only).
 */
import { z } from 'zod';
import { ERROR_CODES } from '../errors.js';

export const ErrorBody = z
  .object({
    requestId: z.string().meta({ description: 'Correlates the response with server logs (also the X-Request-Id header).' }),
    status: z.number().int(),
    code: z.enum(ERROR_CODES).meta({ description: 'Stable machine-readable code; see docs/2026-11-23-api-conventions.md.' }),
    message: z.string(),
    issues: z.array(z.object({ key: z.string(), message: z.string() })).optional().meta({ description: 'One entry per invalid field.' }),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof ErrorBody>;
