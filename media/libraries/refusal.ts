/**
 * The errors connectors throw when the server itself says no, so the connect endpoint can name
 * the field to fix: `credentialsRefused` (HTTP 401/403, Alist code 401) names `secret` (or
 * `username` when the server said the user is unknown), `notALibrary` names `url` (the server
 * answered, but not as this kind of server). Network failures stay the upstream client's
 * `bad_gateway` / `deadline_exceeded` / `forbidden` and the connect endpoint names `url` for them.
 */
import { AppError } from '../../errors/index.js';

export function credentialsRefused(server: string, detail: string, field: 'secret' | 'username' = 'secret'): AppError {
  const message = `${server} refused the credentials: ${detail}`;
  return new AppError('bad_gateway', message, [{ key: field, message: `was refused by ${server} (${detail})` }]);
}

export function notALibrary(server: string, detail: string): AppError {
  return new AppError('bad_gateway', `${server} is not a library of this kind: ${detail}`, [{ key: 'url', message: `does not answer as expected: ${detail}` }]);
}

/** `not_found` for an entry the server no longer has. */
export function entryGone(server: string, entry: string): AppError {
  return new AppError('not_found', `${server} has no ${entry} (moved or deleted?)`);
}
