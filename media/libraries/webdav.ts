/**
 * WebDAV (RFC 4918) libraries: Nextcloud, ownCloud, Synology, rclone serve, Alist's /dav,
 * nginx's dav-ext. An entry id is the entry's path under the connection's URL, decoded, `/` for
 * the root and ending in `/` for folders (`/Movies/`, `/Movies/film.mp4`), and never anything
 * that would leave that URL's folder (./entry-path.ts; a listing drops the hrefs that would).
 * Listing is a `PROPFIND` of depth 1; searching walks folders breadth first and matches names,
 * because the SEARCH method (RFC 5323) is rarely served, with a cap on the folders visited.
 * Files are read with HTTP Basic credentials, so items from a WebDAV library always go through
 * the media proxy, which reads nothing outside the library's folder (`scope`), and the upstream
 * client keeps `Authorization` inside it across redirects.
 */
import { XMLParser } from 'fast-xml-parser';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { sourceTypeOfUrl } from '../providers/source-type.js';
import { readLimited } from '../proxy/read-body.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { checkAccessFields } from './access-check.js';
import type { LibraryAccess, LibraryCallOptions, LibraryConnector, LibraryEntry, LibraryFile, LibraryListing, LibrarySearch } from './connector.js';
import { byFolderThenName, fileKind } from './entry-kind.js';
import { checkedPath, isInsidePath } from './entry-path.js';
import { confinedClient, libraryRoot, type LibraryHttp } from './library-scope.js';
import { credentialsRefused, entryGone, notALibrary } from './refusal.js';

/** Entries read from one listing; a folder of more is shown truncated. */
export const WEBDAV_LISTING_MAX = 2000;
/** A multistatus of 2000 entries is about 1 MiB; more is not a listing we read. */
const LISTING_LIMIT_BYTES = 4 * 1024 * 1024;
/** Folders a search lists before it stops and says its answer is truncated. */
export const WEBDAV_SEARCH_FOLDERS_MAX = 50;
export const SEARCH_RESULTS_MAX = 100;

const PROPFIND_BODY =
  '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/><D:getcontentlength/><D:getcontenttype/><D:displayname/></D:prop></D:propfind>';

const parser = new XMLParser({
  removeNSPrefix: true,
  ignoreAttributes: true,
  parseTagValue: false,
  isArray: (name) => name === 'response' || name === 'propstat',
});

interface PropStat {
  status?: string;
  prop?: { resourcetype?: unknown; getcontentlength?: string; getcontenttype?: string; displayname?: string };
}

export class WebDavConnector implements LibraryConnector {
  readonly kind = 'webdav';
  readonly label = 'WebDAV (Nextcloud, ownCloud, Synology, rclone, Alist /dav)';

  constructor(private readonly http: Pick<UpstreamClient, 'request'>) {}

  private client(access: LibraryAccess, options: LibraryCallOptions): LibraryHttp {
    return confinedClient(libraryRoot(access.url), options.http ?? this.http);
  }

  check(access: LibraryAccess): FieldIssue[] {
    return checkAccessFields(access);
  }

  async list(access: LibraryAccess, folderId: string | null, options: LibraryCallOptions): Promise<LibraryListing> {
    const folder = checkedPath(folderId ?? '/', 'folder');
    if (!folder.endsWith('/')) throw AppError.invalid([{ key: 'folder', message: 'must be a folder id (it ends with "/")' }]);
    const { entries, truncated } = await this.propfind(access, folder, options);
    return { folder: { id: folder, name: nameOf(folder) || hostName(access.url) }, entries, truncated };
  }

  async search(access: LibraryAccess, query: string, options: LibraryCallOptions): Promise<LibrarySearch> {
    const needle = query.trim().toLocaleLowerCase();
    const found: LibraryEntry[] = [];
    const queue = ['/'];
    let visited = 0;
    while (queue.length > 0) {
      if (visited >= WEBDAV_SEARCH_FOLDERS_MAX || found.length >= SEARCH_RESULTS_MAX) return { entries: found.slice(0, SEARCH_RESULTS_MAX), truncated: true };
      const folder = queue.shift()!;
      visited += 1;
      const listing = await this.propfind(access, folder, options);
      for (const entry of listing.entries) {
        if (entry.name.toLocaleLowerCase().includes(needle)) found.push(entry);
        if (entry.kind === 'folder') queue.push(entry.id);
      }
    }
    return { entries: found.slice(0, SEARCH_RESULTS_MAX), truncated: found.length > SEARCH_RESULTS_MAX };
  }

  // async with nothing to await: a refused id is a rejected promise, like every other failure of a connector call.
  // eslint-disable-next-line @typescript-eslint/require-await
  async file(access: LibraryAccess, entryId: string): Promise<LibraryFile> {
    const path = checkedPath(entryId, 'entryId');
    if (path.endsWith('/')) throw AppError.invalid([{ key: 'entryId', message: 'names a folder, not a file' }]);
    const url = urlOf(access, path);
    const scope = libraryRoot(access.url);
    return { name: nameOf(path), url, headers: authorization(access), type: sourceTypeOfUrl(url), identity: `webdav:${url}`, subtitles: [], scope };
  }

  private async propfind(access: LibraryAccess, folder: string, options: LibraryCallOptions): Promise<{ entries: LibraryEntry[]; truncated: boolean }> {
    const url = urlOf(access, folder);
    const server = `the WebDAV server ${new URL(access.url).host}`;
    const reply = await this.client(access, options).request({
      url,
      method: 'PROPFIND',
      headers: authorization(access),
      readHeaders: { depth: '1', 'content-type': 'application/xml; charset=utf-8' },
      body: Buffer.from(PROPFIND_BODY),
      signal: options.signal,
    });
    if (reply.status === 401 || reply.status === 403) {
      reply.body.destroy();
      throw credentialsRefused(server, `HTTP ${reply.status}`);
    }
    if (reply.status === 404) {
      reply.body.destroy();
      throw entryGone(server, `folder ${folder}`);
    }
    if (reply.status !== 207) {
      reply.body.destroy();
      throw notALibrary(server, `PROPFIND ${folder} answered HTTP ${reply.status}, not 207 Multi-Status`);
    }
    const text = (await readLimited(reply, LISTING_LIMIT_BYTES, 'WebDAV listing')).toString('utf8');
    let responses: Array<{ href?: string; propstat?: PropStat[] }>;
    try {
      const document = parser.parse(text) as { multistatus?: { response?: Array<{ href?: string; propstat?: PropStat[] }> } };
      if (!document.multistatus) throw new Error('no multistatus');
      responses = document.multistatus.response ?? [];
    } catch (err) {
      throw notALibrary(server, `PROPFIND ${folder} answered something that is not a WebDAV multistatus (${(err as Error).message})`);
    }
    const base = new URL(baseOf(access));
    const entries: LibraryEntry[] = [];
    for (const response of responses) {
      const entry = entryOf(response, base, reply.url);
      if (!entry || entry.id === folder) continue;
      entries.push(entry);
    }
    entries.sort(byFolderThenName);
    return { entries: entries.slice(0, WEBDAV_LISTING_MAX), truncated: entries.length > WEBDAV_LISTING_MAX };
  }
}

function entryOf(response: { href?: string; propstat?: PropStat[] }, base: URL, answeredUrl: string): LibraryEntry | null {
  if (typeof response.href !== 'string') return null;
  let path: string;
  try {
    const href = new URL(response.href, answeredUrl);
    // An href on another origin names nothing of this library, whatever its path.
    if (href.origin !== base.origin) return null;
    path = decodeURIComponent(href.pathname);
  } catch {
    return null;
  }
  const basePath = decodeURIComponent(base.pathname);
  // Entries outside the connection's collection (a server answering with other paths) are not shown.
  if (!path.startsWith(basePath)) return null;
  const ok = response.propstat?.find((stat) => stat.status?.includes(' 200')) ?? response.propstat?.[0];
  const prop = ok?.prop ?? {};
  const isFolder = typeof prop.resourcetype === 'object' && prop.resourcetype !== null && 'collection' in prop.resourcetype;
  let id = `/${path.slice(basePath.length)}`;
  if (isFolder && !id.endsWith('/')) id += '/';
  if (!isFolder && id.endsWith('/')) id = id.replace(/(?<!\/)\/+$/, '');
  // Only ids this connector takes back: a decoded `..`, an empty segment or a backslash would
  // hand a client an id that climbs out of the library when it is resolved again.
  if (!isInsidePath(id)) return null;
  const name = (typeof prop.displayname === 'string' && prop.displayname.trim()) || nameOf(id);
  if (isFolder) return { id, name, kind: 'folder' };
  const size = Number(prop.getcontentlength);
  return { id, name, kind: fileKind(nameOf(id), prop.getcontenttype), ...(Number.isFinite(size) && prop.getcontentlength !== undefined ? { size } : {}) };
}

function baseOf(access: LibraryAccess): string {
  const url = new URL(access.url);
  url.search = '';
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return url.href;
}

function urlOf(access: LibraryAccess, path: string): string {
  const encoded = path.slice(1).split('/').map(encodeURIComponent).join('/');
  return new URL(encoded, baseOf(access)).href;
}

function authorization(access: LibraryAccess): Record<string, string> {
  if (access.username === '' && access.secret === '') return {};
  return { authorization: `Basic ${Buffer.from(`${access.username}:${access.secret}`, 'utf8').toString('base64')}` };
}

function nameOf(path: string): string {
  return path.replace(/(?<!\/)\/+$/, '').split('/').pop() ?? '';
}

function hostName(url: string): string {
  return new URL(url).host;
}
