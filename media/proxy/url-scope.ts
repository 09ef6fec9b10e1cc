/**
 * Whether a URL stays under a scope: a URL prefix ending in "/" (a library's root folder, the
 * folder a DASH manifest named). Used wherever something this service fetches was named by
 * someone else (a member's entry id, a playlist's segment line, a manifest's BaseURL) and must
 * not leave the folder it was granted: the media proxy, the library connectors.
 *
 * "Under" is judged on the normalised URL (WHATWG parsing resolves `..`, `%2e%2e` and, for
 * http(s), backslashes) and then on what the upstream would see: every path segment below the
 * scope, percent-decoded once, must not be `.` or `..` nor hold a slash or a backslash, because
 * servers such as nginx decode `%2F` before resolving dot segments (`a%2F..%2F..%2Fx` climbs
 * there). The query is not a path and is not judged.
 */

/** A path segment as the upstream reads it names a step up, a step nowhere, or a hidden separator. */
export function isUnsafeSegment(segment: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(segment);
  } catch {
    // Not valid percent-encoding: read literally, and judged as written.
    decoded = segment;
  }
  return decoded === '.' || decoded === '..' || /[/\\]/.test(decoded);
}

/** `url` (absolute) lies under `scope` (absolute, ending in "/"), on its origin, and climbs out nowhere. */
export function isWithinScope(url: string, scope: string): boolean {
  let target: URL;
  let root: URL;
  try {
    target = new URL(url);
    root = new URL(scope);
  } catch {
    return false;
  }
  if (target.origin !== root.origin || target.username !== '' || target.password !== '') return false;
  if (!root.pathname.endsWith('/') || !target.pathname.startsWith(root.pathname)) return false;
  const below = target.pathname.slice(root.pathname.length);
  return below === '' || below.split('/').every((segment) => !isUnsafeSegment(segment));
}

/** The folder a URL is in: its origin and path up to the last "/", without query or fragment. */
export function folderOf(url: string): string {
  const folder = new URL('./', url);
  folder.search = '';
  folder.hash = '';
  return folder.href;
}
