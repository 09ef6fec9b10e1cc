import { AppError } from '../../errors/index.js';
import type { PasswordKind } from '../credentials.js';
import { checkPassword } from '../password-policy.js';
import { hashPassword } from './argon2.js';
import { checkOpaqueRecord } from './opaque-record.js';

/**
 * A password being set (signup by email, reset, change): either the password itself
 * (direct transport, stored as its Argon2id hash) or an OPAQUE registration record made by
 * the client against `OpaqueMethod.registrationResponse`. Exactly one of the two.
 */
export interface NewPassword {
  password?: string | undefined;
  registrationRecord?: string | undefined;
}

/** What the credential row stores for the new password, after the password rules. */
export async function passwordSecret(input: NewPassword, username: string): Promise<{ kind: PasswordKind; secret: string }> {
  if (input.registrationRecord !== undefined && input.password !== undefined) {
    throw AppError.invalid([{ key: 'password', message: 'give password or registrationRecord, not both' }]);
  }
  if (input.registrationRecord !== undefined) return { kind: 'opaque', secret: await checkOpaqueRecord(input.registrationRecord) };
  if (input.password === undefined) throw AppError.invalid([{ key: 'password', message: 'is required (or registrationRecord, for OPAQUE)' }]);
  checkPassword(input.password, username);
  return { kind: 'argon2', secret: await hashPassword(input.password) };
}
