/**
 * Alist and OpenList sites, browsed through their public HTTP API (https://alist.nn.ci/guide/api/):
 * `POST /api/fs/list` lists a folder, `POST /api/fs/search` searches (when the site's admin
 * built a search index; otherwise this says so), `POST /api/fs/get` gives a file's signed
 * `raw_url` (./../providers/alist-api.ts, shared with the `alist` provider). An entry id is the
 * entry's path on the site (`/`, `/Movies`, `/Movies/film.mp4`), a clean one (./entry-path.ts);
 * the API is called only under the site's address, and a raw link (signed by itself, often on
 * another host) is read only inside its own folder (`scope`).
 *
 * Credentials: with a user name, `POST /api/auth/login` turns it and the password into a token
 * (kept here for an hour, dropped when the site answers 401); without one, the secret is the
 * token itself (an admin's token from the site's settings), or the site is browsed as its guest.
 */
import { createHash } from 'node:crypto';
import { AppError, type FieldIssue } from '../../errors/index.js';
import { alistPost, alistRawUrl, type AlistAnswer } from '../providers/alist-api.js';
import { sourceTypeOfUrl } from '../providers/source-type.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { checkAccessFields } from './access-check.js';
import type { LibraryAccess, LibraryCallOptions, LibraryConnector, LibraryEntry, LibraryFile, LibraryListing, LibrarySearch } from './connector.js';
import { byFolderThenName, fileKind } from './entry-kind.js';
import { checkedPath, isInsidePath } from './entry-path.js';
import { confinedClient, libraryRoot, type LibraryHttp } from './library-scope.js';
import { folderOf } from '../proxy/url-scope.js';
import { credentialsRefused, entryGone, notALibrary } from './refusal.js';

export const ALIST_LISTING_MAX = 2000;
export const ALIST_SEARCH_MAX = 100;
const TOKEN_TTL_MS = 60 * 60 * 1000;
const TOKENS_KEPT = 1000;

interface AlistObject {
  name: string;
  size?: number;
  is_dir: boolean;
  /** 1 folder, 2 video, 3 audio, 4 text, 5 image, 0 other. */
  type?: number;
  /** Search results only: the folder holding it. */
  parent?: string;
}

export class AlistConnector implements LibraryConnector {
  readonly kind = 'alist';
  readonly label = 'Alist / OpenList';
  private readonly tokens = new Map<string, { token: string; until: number }>();

  constructor(private readonly http: Pick<UpstreamClient, 'request'>) {}

  private client(access: LibraryAccess, options: LibraryCallOptions): LibraryHttp {
    return confinedClient(libraryRoot(access.url), options.http ?? this.http);
  }

  check(access: LibraryAccess): FieldIssue[] {
    return checkAccessFields(access);
  }

  async list(access: LibraryAccess, folderId: string | null, options: LibraryCallOptions): Promise<LibraryListing> {
    const path = checkedPath(folderId ?? '/', 'folder');
    const data = await this.call<{ content: AlistObject[] | null; total: number }>(access, '/api/fs/list', { path, password: '', page: 1, per_page: ALIST_LISTING_MAX, refresh: false }, options, path);
    const content = data.content ?? [];
    const entries = listed(content.map((object) => entryOf(join(path, object.name), object))).sort(byFolderThenName);
    return { folder: { id: path, name: path === '/' ? new URL(access.url).host : (path.split('/').pop() ?? path) }, entries, truncated: data.total > content.length };
  }

  async search(access: LibraryAccess, query: string, options: LibraryCallOptions): Promise<LibrarySearch> {
    const body = { parent: '/', keywords: query.trim(), scope: 0, page: 1, per_page: ALIST_SEARCH_MAX, password: '' };
    const data = await this.call<{ content: AlistObject[] | null; total: number }>(access, '/api/fs/search', body, options, '/');
    const content = data.content ?? [];
    return { entries: listed(content.map((object) => entryOf(join(object.parent ?? '/', object.name), object))), truncated: data.total > content.length };
  }

  async file(access: LibraryAccess, entryId: string, options: LibraryCallOptions & { refresh: boolean }): Promise<LibraryFile> {
    const path = checkedPath(entryId, 'entryId');
    const base = baseOf(access);
    const headers = await this.headers(access, options, options.refresh);
    const raw = await alistRawUrl(this.client(access, options), base, path, '', headers, options.signal);
    // The raw link is signed by itself: the token stays with the API. What the file names (a
    // playlist's segments) is read only beside it, in the raw link's own folder.
    return { name: raw.name, url: raw.url, headers: {}, type: sourceTypeOfUrl(`${base}${encodeURI(raw.name)}`), identity: `alist:${base}${path}`, subtitles: [], scope: folderOf(raw.url) };
  }

  /** An API call with the connection's token; one new login when the kept token was refused. */
  private async call<T>(access: LibraryAccess, endpoint: string, body: unknown, options: LibraryCallOptions, path: string): Promise<T> {
    const base = baseOf(access);
    const server = `the Alist server ${new URL(access.url).host}`;
    const http = this.client(access, options);
    let answer: AlistAnswer<T> = await alistPost<T>(http, base, endpoint, body, await this.headers(access, options, false), options.signal);
    if (answer.code === 401 && access.username !== '') {
      answer = await alistPost<T>(http, base, endpoint, body, await this.headers(access, options, true), options.signal);
    }
    if (answer.code === 200 && answer.data) return answer.data;
    if (answer.code === 401 || answer.code === 403) throw credentialsRefused(server, `${answer.code} ${answer.message}`);
    if (endpoint === '/api/fs/search' && /search not available|not enabled|disabled/i.test(answer.message)) {
      throw new AppError('unavailable', `${server} has search turned off (its admin builds a search index under Settings, Index); browse its folders instead`);
    }
    if (/not found|not exist/i.test(answer.message)) throw entryGone(server, path);
    throw new AppError('bad_gateway', `${server} refused ${endpoint} for ${path}: ${answer.code} ${answer.message}`);
  }

  private async headers(access: LibraryAccess, options: LibraryCallOptions, fresh: boolean): Promise<Record<string, string>> {
    if (access.username === '') return access.secret === '' ? {} : { authorization: access.secret };
    const key = createHash('sha256').update(JSON.stringify([baseOf(access), access.username, access.secret])).digest('base64url');
    const kept = this.tokens.get(key);
    if (!fresh && kept && kept.until > Date.now()) return { authorization: kept.token };
    const base = baseOf(access);
    const server = `the Alist server ${new URL(access.url).host}`;
    const answer = await alistPost<{ token?: string }>(this.client(access, options), base, '/api/auth/login', { username: access.username, password: access.secret }, {}, options.signal);
    if (answer.code !== 200 || !answer.data?.token) {
      if (answer.code === 404 && /page not found|404/i.test(answer.message)) throw notALibrary(server, 'it has no /api/auth/login');
      const unknownUser = /user/i.test(answer.message) && /not found|find/i.test(answer.message);
      throw credentialsRefused(server, `${answer.code} ${answer.message}`, unknownUser ? 'username' : 'secret');
    }
    if (this.tokens.size >= TOKENS_KEPT) this.tokens.clear();
    this.tokens.set(key, { token: answer.data.token, until: Date.now() + TOKEN_TTL_MS });
    return { authorization: answer.data.token };
  }
}

function entryOf(id: string, object: AlistObject): LibraryEntry {
  if (object.is_dir) return { id, name: object.name, kind: 'folder' };
  const kind = object.type === 2 ? 'video' : object.type === 3 ? 'audio' : fileKind(object.name);
  return { id, name: object.name, kind, ...(typeof object.size === 'number' && object.size > 0 ? { size: object.size } : {}) };
}

/** The entries whose ids this connector takes back (a name holding "/" or "..", say, would not be). */
function listed(entries: LibraryEntry[]): LibraryEntry[] {
  return entries.filter((entry) => isInsidePath(entry.id));
}

function join(folder: string, name: string): string {
  return `${folder.replace(/(?<!\/)\/+$/, '')}/${name}`;
}

/** The site's address without a trailing slash (a site may live under a path). */
function baseOf(access: LibraryAccess): string {
  const url = new URL(access.url);
  return `${url.origin}${url.pathname.replace(/(?<!\/)\/+$/, '')}`;
}
