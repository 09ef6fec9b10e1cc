import type { RateLimits } from '../rate-limits.js';
import { checkCode, type CodePurpose, type LiveCode } from './codes.js';
import type { Queryable } from '../users.js';
import { isAppError } from '../../errors/index.js';
import type { Mailer } from '../../mail/index.js';

/**
 * Checks an emailed code under the code-verification rate limits: per address of the
 * client, and per email address so guessing one account's code from many addresses stalls too.
 * The try is counted as wrong before the code is judged (concurrent guesses cannot all pass a
 * check made before any was counted) and given back when the code was right or not judged.
 */
export async function verifyCode(
  db: Queryable,
  limits: RateLimits,
  input: { purpose: CodePurpose; emailKey: string; code: string },
  ip: string,
): Promise<LiveCode> {
  const accountKey = `email:${input.emailKey}`;
  await limits.consume('codesPerIp', ip, 'code attempts from this address');
  await limits.attempt('codeFailuresPerAccount', accountKey, 'wrong codes for this email address');
  let live: LiveCode;
  try {
    live = await checkCode(db, input);
  } catch (err) {
    if (!(isAppError(err) && err.code === 'unauthenticated')) await limits.refund('codeFailuresPerAccount', accountKey);
    throw err;
  }
  await limits.refund('codeFailuresPerAccount', accountKey);
  return live;
}

/** Email flows need SMTP; say so (failed_precondition) before anything is written. */
export function requireMail(mailer: Pick<Mailer, 'requireConfigured'>): void {
  mailer.requireConfigured();
}
