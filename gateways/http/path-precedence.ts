/**
 * Which declared path a request path belongs to when several templates match it, by the
 * OpenAPI rule: a concrete segment wins over a template (`/api/me/notifications/read-all`
 * over `/api/me/notifications/{notificationId}`). Koa's router runs every matching route and
 * advertises the union of their methods in `Allow`; the API document describes one path per
 * request, so the gateway routes and answers `Allow` by the one this picks.
 */

/** Route paths in the router's form (`:name` for a parameter). */
export function mostSpecificPath(paths: readonly string[]): string | undefined {
  let best: string | undefined;
  for (const path of paths) {
    if (best === undefined || moreSpecific(path, best)) best = path;
  }
  return best;
}

/** At the first segment where they differ in kind, the one with a fixed segment there wins. */
function moreSpecific(a: string, b: string): boolean {
  const as = a.split('/');
  const bs = b.split('/');
  for (let i = 0; i < Math.min(as.length, bs.length); i += 1) {
    const aParam = as[i]?.startsWith(':') ?? false;
    const bParam = bs[i]?.startsWith(':') ?? false;
    if (aParam !== bParam) return bParam;
  }
  return false;
}
