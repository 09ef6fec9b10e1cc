/**
 * Belt and braces for every connector: each request a connector makes with a library's
 * credentials goes through `confinedClient`, which refuses (before anything is sent) a URL that
 * is not under the library's root: its origin and its path prefix, judged after normalisation
 * (media/proxy/url-scope.ts). The entry checks (./entry-path.ts) already keep client-sent ids
 * inside; this catches what they could not foresee (an id a server answered with, a connector
 * bug). The credentials are also bound to the root across redirects (`headersScope`): a hop
 * that leaves it, even on the same server, gets none of them.
 */
import { AppError } from '../../errors/index.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { isWithinScope } from '../proxy/url-scope.js';

/** What connectors reach their servers through (an UpstreamClient, or one counting requests: ./upstream-budget.ts). */
export type LibraryHttp = Pick<UpstreamClient, 'request'>;

/** The library's root: its URL's origin and path, ending in "/", without query or fragment. */
export function libraryRoot(url: string): string {
  const root = new URL(url);
  root.search = '';
  root.hash = '';
  if (!root.pathname.endsWith('/')) root.pathname += '/';
  return root.href;
}

/** `http` limited to URLs under `root`; anything else is `forbidden` and never sent. */
export function confinedClient(root: string, http: LibraryHttp): LibraryHttp {
  return {
    request(request) {
      if (!isWithinScope(request.url, root)) {
        return Promise.reject(new AppError('forbidden', `a library request was refused: ${request.url.slice(0, 200)} is not inside the library at ${root}`));
      }
      return http.request({ ...request, headersScope: root });
    },
  };
}
