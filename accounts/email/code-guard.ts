import type { RateLimits } from '../rate-limits.js';
import { checkCode, type CodePurpose, type LiveCode } from './codes.js';
import type { Queryable } from '../users.js';
import { AppError, isAppError } from '../../errors/app-error.js';

/**
 * Checks an emailed code under the code-verification rate limits: per address of the
 * client, and per email address so guessing one account's code from many addresses stalls too.
 */
export async function verifyCode(
  db: Queryable,
  limits: RateLimits,
  input: { purpose: CodePurpose; emailKey: string; code: string },
  ip: string,
): Promise<LiveCode> {
  const accountKey = `email:${input.emailKey}`;
  await limits.consume('codesPerIp', ip, 'code attempts from this address');
  await limits.check('codeFailuresPerAccount', accountKey, 'wrong codes for this email address');
  try {
    return await checkCode(db, input);
  } catch (err) {
    if (isAppError(err) && err.code === 'unauthenticated') await limits.penalize('codeFailuresPerAccount', accountKey);
    throw err;
  }
}

/** Email flows need SMTP; say so before anything is written. */
export function requireMail(configured: boolean): void {
  if (!configured) throw new AppError('unavailable', 'email is not configured on this server (smtp.host and smtp.sender)');
}
