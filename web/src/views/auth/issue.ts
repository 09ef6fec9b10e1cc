import { asApiError } from '../../api/errors.js';

/** The server's message for one field of a failed request, for `Field`'s `error` prop. */
export function issueFor(error: unknown, key: string): string | undefined {
  return error == null ? undefined : asApiError(error).issueFor(key);
}
