/**
 * `alist`: a file on an Alist server (https://alist.nn.ci), the example third-party provider.
 * The item's URL is the file's page or download link on that server
 * (`https://alist.host/path/file.mp4` or `https://alist.host/d/path/file.mp4`); resolving asks
 * Alist's API (`POST /api/fs/get` with the path and folder password) for `raw_url`, a signed
 * link to the bytes that expires. So the proxy is required: members' browsers never see the
 * API token or the password, and when a raw link stops working (403) the proxy resolves again.
 *
 * Item headers: `Authorization` (an Alist token, for private servers) goes to the API only;
 * `X-Alist-Password` is the folder password and goes nowhere else. How to write a provider:
 * docs/2026-11-23-media-providers.md.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import type { FieldIssue } from '../../errors/index.js';
import type { MediaProvider, ResolveOptions, Upstream } from '../provider.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { alistRawUrl } from './alist-api.js';
import { sourceTypeOfUrl } from './source-type.js';

const PASSWORD_HEADER = 'x-alist-password';

/** The server and the file path an item's URL names. */
export function alistLocation(url: string): { base: string; path: string } {
  const parsed = new URL(url);
  let path = decodeURIComponent(parsed.pathname);
  // /d/<path> and /p/<path> are Alist's download and proxy links for <path>.
  path = path.replace(/^\/[dp](?=\/)/, '');
  return { base: parsed.origin, path };
}

export class AlistProvider implements MediaProvider {
  readonly name = 'alist';
  readonly label = 'Alist file';
  readonly proxy = 'required' as const;
  readonly live = false;

  constructor(private readonly http: Pick<UpstreamClient, 'request'>) {}

  check(fields: { url: string; headers: Record<string, string> }): FieldIssue[] {
    try {
      const { path } = alistLocation(fields.url);
      if (path === '/' || path === '') return [{ key: 'url', message: 'must name a file on the Alist server, such as https://alist.example.com/d/movies/film.mp4' }];
    } catch {
      return [{ key: 'url', message: 'must be the file\'s URL on the Alist server' }];
    }
    return [];
  }

  async resolve(item: MediaItem, options: ResolveOptions): Promise<Upstream> {
    const { base, path } = alistLocation(item.url);
    const headers = Object.fromEntries(Object.entries(item.headers).map(([name, value]) => [name.toLowerCase(), value]));
    const password = headers[PASSWORD_HEADER] ?? '';
    delete headers[PASSWORD_HEADER];
    const raw = await alistRawUrl(this.http, base, path, password, headers, options.signal);
    return {
      url: raw.url,
      // The raw link is signed by itself; the API token stays with the API.
      headers: {},
      type: sourceTypeOfUrl(`${base}${encodeURI(raw.name)}`),
      identity: `alist:${base}${path}`,
    };
  }
}
