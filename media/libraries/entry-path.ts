/**
 * Entry ids of path-shaped libraries (WebDAV, Alist) come back from clients: they must be paths
 * from a listing, and may not climb out of the connection's folder with `..`.
 */
import { AppError } from '../../errors/app-error.js';

export function checkedPath(id: string, key: string): string {
  if (!id.startsWith('/') || id.length > 4096) throw AppError.invalid([{ key, message: 'must be an entry id from a listing (a path starting with "/")' }]);
  if (id.split('/').some((segment) => segment === '..' || segment === '.')) throw AppError.invalid([{ key, message: 'must not hold "." or ".." segments' }]);
  // eslint-disable-next-line no-control-regex -- naming control characters is the point
  if (/[\u0000-\u001f]/.test(id)) throw AppError.invalid([{ key, message: 'must not hold control characters' }]);
  return id;
}
