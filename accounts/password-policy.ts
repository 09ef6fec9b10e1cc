import { AppError } from '../errors/index.js';

import { PASSWORD_MAX_CHARS, PASSWORD_MIN_CHARS } from '../contracts/account-rules.js';

/** A local password (direct transport) by contracts/account-rules.ts, and not the username. */
export function checkPassword(password: string, username: string, field = 'password'): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_CHARS) throw AppError.invalid([{ key: field, message: `must be at least ${PASSWORD_MIN_CHARS} characters` }]);
  if (length > PASSWORD_MAX_CHARS) throw AppError.invalid([{ key: field, message: `must be at most ${PASSWORD_MAX_CHARS} characters` }]);
  if (password.normalize('NFKC').toLowerCase() === username.normalize('NFKC').toLowerCase()) {
    throw AppError.invalid([{ key: field, message: 'must not be the username' }]);
  }
}
