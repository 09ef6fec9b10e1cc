import { AppError } from '../errors/app-error.js';

/**
 * Local passwords (direct transport) follow NIST SP 800-63B: a minimum length, a generous
 * maximum, no composition rules. OPAQUE passwords never reach the server, so only clients can
 * apply this rule to them; the web client does.
 */
export const PASSWORD_MIN_CHARS = 8;
export const PASSWORD_MAX_CHARS = 256;

export function checkPassword(password: string, username: string, field = 'password'): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN_CHARS) throw AppError.invalid([{ key: field, message: `must be at least ${PASSWORD_MIN_CHARS} characters` }]);
  if (length > PASSWORD_MAX_CHARS) throw AppError.invalid([{ key: field, message: `must be at most ${PASSWORD_MAX_CHARS} characters` }]);
  if (password.normalize('NFKC').toLowerCase() === username.normalize('NFKC').toLowerCase()) {
    throw AppError.invalid([{ key: field, message: 'must not be the username' }]);
  }
}
