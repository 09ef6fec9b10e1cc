/**
 * Entry ids come back from clients, and each names something inside one library: nothing a
 * client sends may move a request out of it. Path-shaped ids (WebDAV, Alist) are paths relative
 * to the library's root written from "/": `/`, `/Shows/`, `/Shows/ep01.mp4`. A WebDAV id is
 * resolved against the library's URL, so `//host/x` would name another host and `//dav/x` a path
 * from the server's root; `..` climbs (and so does `%2e%2e` or `..%2F` at a server that decodes
 * before resolving). Refused, naming the field: anything not starting with "/", empty segments,
 * `.` and `..` segments (also percent-encoded, judged after one decoding), backslashes and
 * control characters. Jellyfin and Emby ids are opaque item ids (GUID hex, digits), put into
 * request paths: anything else than letters, digits and dashes is refused, so `..` or `a/b`
 * cannot change which path is asked for.
 */
import { AppError } from '../../errors/index.js';
import { isUnsafeSegment } from '../proxy/url-scope.js';

const PATH_MAX_CHARS = 4096;
// eslint-disable-next-line no-control-regex -- naming control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/** Jellyfin item ids are GUIDs (hex, with or without dashes), Emby's are digits. */
const ITEM_ID = /^[A-Za-z0-9-]{1,64}$/;

/** Why `id` is not a path inside the library, or undefined when it is one. */
function pathProblem(id: string): string | undefined {
  if (!id.startsWith('/')) return 'must be an entry id from a listing (a path starting with "/")';
  if (id.length > PATH_MAX_CHARS) return `must be at most ${PATH_MAX_CHARS} characters`;
  if (CONTROL.test(id)) return 'must not hold control characters';
  if (id.includes('\\')) return 'must not hold backslashes';
  // The root is "/"; a folder ends in one "/"; nothing else is empty between slashes.
  const inner = id.slice(1).replace(/\/$/, '');
  if (inner === '') return id === '/' ? undefined : 'must not hold empty segments ("//")';
  const segments = inner.split('/');
  if (segments.some((segment) => segment === '')) return 'must not hold empty segments ("//")';
  if (segments.some(isUnsafeSegment)) return 'must not hold "." or ".." segments, or slashes and backslashes percent-encoded';
  return undefined;
}

/** `id` when it is a path inside the library; `invalid_argument` naming `key` otherwise. */
export function checkedPath(id: string, key: string): string {
  const problem = pathProblem(id);
  if (problem) throw AppError.invalid([{ key, message: problem }]);
  return id;
}

/** Whether a path a server listed is one this library would take back (listings hand out nothing else). */
export function isInsidePath(id: string): boolean {
  return pathProblem(id) === undefined;
}

/** `id` when it has the shape of a Jellyfin or Emby item id; `invalid_argument` naming `key` otherwise. */
export function checkedItemId(id: string, key: string): string {
  if (!ITEM_ID.test(id)) throw AppError.invalid([{ key, message: 'must be an item id from a listing (letters, digits and "-", at most 64)' }]);
  return id;
}

/** Whether an id a server answered with has the item-id shape (listings hand out nothing else). */
export function isItemId(id: string): boolean {
  return ITEM_ID.test(id);
}
