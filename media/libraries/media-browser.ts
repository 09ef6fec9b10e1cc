/**
 * What Jellyfin and Emby share: both descend from the MediaBrowser API, so a library is a user's
 * views, a folder is `Items?ParentId=`, a search is `Items?SearchTerm=&Recursive=true`, a file's
 * bytes are `/Videos/{id}/stream?static=true` and a subtitle track is
 * `/Videos/{id}/{mediaSourceId}/Subtitles/{index}/Stream.vtt`. Where the two differ (the auth
 * header, the user-scoped paths, the casing of query names) a `MediaBrowserDialect` says how.
 *
 * Item ids from clients are checked for the shape of an id before anything is asked
 * (./entry-path.ts: `..` or `a/b` would change the request's path), listings hand out only such
 * ids, and every request stays under the server's address (./library-scope.ts).
 *
 * A file's bytes are the static file (the media proxy serves its ranges). Only a library set to
 * `transcoder: server` asks the server to convert (`serverTranscode`): its HLS master playlist
 * (`/Videos/{id}/master.m3u8`, H.264 and AAC stereo in MPEG-TS segments), one play session per
 * room and item (`transcodeSession`).
 *
 * Deliberately not used: resume positions (no UserData is asked for or read, `enableUserData`
 * is false), and image-based subtitles (PGS, VobSub, DVB: a browser cannot draw them as text
 * tracks).
 */
import { createHash } from 'node:crypto';
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { UpstreamClient } from '../proxy/upstream-client.js';
import { readLimited } from '../proxy/read-body.js';
import type { SourceType } from '../provider.js';
import type {
  LibraryAccess,
  LibraryCallOptions,
  LibraryConnector,
  LibraryEntry,
  LibraryEntryKind,
  LibraryFile,
  LibraryListing,
  LibrarySubtitle,
} from './connector.js';
import { checkedItemId, isItemId } from './entry-path.js';
import { confinedClient, libraryRoot, type LibraryHttp } from './library-scope.js';

/** A JSON answer larger than this is refused: a listing of LISTING_LIMIT items is far smaller. */
const ANSWER_LIMIT_BYTES = 4 * 1024 * 1024;
/** Items read in one listing or search; more is reported as `truncated`. */
export const LISTING_LIMIT = 500;
const SEARCH_LIMIT = 100;
/** Sessions (token and user id) remembered per access; the oldest is forgotten first. */
const SESSION_CACHE_SIZE = 256;

export const CLIENT_NAME = 'svc';
export const CLIENT_VERSION = '1.0.0';
/** Stable per process and server: servers list sessions by device, and one device per svc is honest. */
export const DEVICE_NAME = 'svc media library';

const FOLDER_TYPES = new Set(['CollectionFolder', 'UserView', 'Folder', 'Series', 'Season', 'BoxSet', 'AggregateFolder', 'ManualPlaylistsFolder', 'Playlist']);
const VIDEO_TYPES = new Set(['Movie', 'Episode', 'Video', 'MusicVideo', 'Trailer']);
const AUDIO_TYPES = new Set(['Audio', 'AudioBook']);
/** What a search may answer: the browsable folders and the playable files. */
export const SEARCH_TYPES = ['Movie', 'Episode', 'Video', 'MusicVideo', 'Audio', 'Series', 'Season', 'BoxSet', 'Folder'];
/** Image-based subtitle codecs (as ffprobe names them): no text to show, so skipped. */
const IMAGE_SUBTITLE_CODECS = new Set(['pgssub', 'pgs', 'hdmv_pgs_subtitle', 'dvdsub', 'dvd_subtitle', 'vobsub', 'dvbsub', 'dvb_subtitle', 'xsub']);
/** A media source id as servers answer it (Jellyfin: GUID hex; Emby: `mediasource_<digits>`), put into stream paths. */
const MEDIA_SOURCE_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** The parts of a BaseItemDto the connectors read. */
export interface MediaBrowserItem {
  Id: string;
  Name?: string | null;
  Type?: string;
  IsFolder?: boolean | null;
  IndexNumber?: number | null;
  ParentIndexNumber?: number | null;
  RunTimeTicks?: number | null;
  Container?: string | null;
  MediaSources?: MediaBrowserSource[] | null;
  MediaStreams?: MediaBrowserStream[] | null;
}

export interface MediaBrowserSource {
  Id?: string | null;
  Container?: string | null;
  Size?: number | null;
  MediaStreams?: MediaBrowserStream[] | null;
}

export interface MediaBrowserStream {
  Type?: string;
  Index: number;
  Codec?: string | null;
  Language?: string | null;
  Title?: string | null;
  DisplayTitle?: string | null;
  IsExternal?: boolean;
  IsTextSubtitleStream?: boolean;
}

interface ItemsAnswer {
  Items?: MediaBrowserItem[] | null;
  TotalRecordCount?: number;
}

/** A signed-in user on one server: what every call after login needs. */
export interface Session {
  token: string;
  userId: string;
  /** The device id svc signs in as for this access (see `deviceId`). */
  device: string;
}

export interface ItemsQuery {
  parentId?: string;
  searchTerm?: string;
  recursive?: boolean;
  includeItemTypes?: string[];
  limit: number;
}

/** How one server kind spells what the MediaBrowser API shares. */
export interface MediaBrowserDialect {
  kind: string;
  label: string;
  /** Headers identifying svc (as `device`), with the session's token when there is one. */
  authHeaders(token: string | null, device: string): Record<string, string>;
  /** Path and query (after the base URL) of the user's libraries. */
  viewsPath(userId: string): string;
  itemsPath(userId: string, query: ItemsQuery): string;
  /** One item with its media sources and streams. */
  itemPath(userId: string, itemId: string): string;
  /** Users, to pick whose views an API key browses. */
  usersPath(): string;
  streamPath(itemId: string, mediaSourceId: string): string;
  /** The server's HLS master playlist of the item converted for browsers (`media`: `Videos` or `Audio`), in the play session given. */
  masterPlaylistPath(media: 'Videos' | 'Audio', itemId: string, session: TranscodeSession & { mediaSourceId: string }): string;
  subtitlePath(itemId: string, mediaSourceId: string, index: number): string;
}

interface UserDto {
  Id: string;
  Name?: string | null;
  Policy?: { IsAdministrator?: boolean; IsDisabled?: boolean } | null;
}

export class MediaBrowserConnector implements LibraryConnector {
  readonly kind: string;
  readonly label: string;
  /** Insertion-ordered: the first key is the oldest. Keyed by a hash of the access, never the secret itself. */
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly http: UpstreamClient,
    private readonly dialect: MediaBrowserDialect,
  ) {
    this.kind = dialect.kind;
    this.label = dialect.label;
  }

  private client(access: LibraryAccess, options: LibraryCallOptions): LibraryHttp {
    return confinedClient(libraryRoot(baseUrl(access.url)), options.http ?? this.http);
  }

  check(access: LibraryAccess): FieldIssue[] {
    const issues: FieldIssue[] = [];
    let url: URL | null = null;
    try {
      url = new URL(access.url);
    } catch {
      issues.push({ key: 'url', message: `the ${this.label} server address must be a URL such as https://media.example.org:8096` });
    }
    if (url) {
      if (url.protocol !== 'http:' && url.protocol !== 'https:') issues.push({ key: 'url', message: `the ${this.label} server address must start with http:// or https://` });
      else if (url.username !== '' || url.password !== '') issues.push({ key: 'url', message: 'put the user name and password in their own fields, not in the address' });
      else if (url.search !== '' || url.hash !== '') issues.push({ key: 'url', message: `the ${this.label} server address takes no query or fragment` });
    }
    if (access.secret === '') {
      issues.push({ key: 'secret', message: access.username === '' ? `an API key (or a user name and password) is required to reach ${this.label}` : 'the password is required' });
    }
    if (access.username.length > 256) issues.push({ key: 'username', message: 'the user name is longer than 256 characters' });
    return issues;
  }

  async list(access: LibraryAccess, folderId: string | null, options: LibraryCallOptions): Promise<LibraryListing> {
    if (folderId !== null) checkedItemId(folderId, 'folder');
    return this.withSession(access, options, async (session) => {
      if (folderId === null) {
        const answer = await this.getJson<ItemsAnswer>(access, this.dialect.viewsPath(session.userId), session, options);
        const items = answer.Items ?? [];
        return { folder: { id: '', name: this.label }, entries: listedEntries(items), truncated: false };
      }
      const folder = await this.getJson<MediaBrowserItem>(access, this.dialect.itemPath(session.userId, folderId), session, options);
      const answer = await this.getJson<ItemsAnswer>(access, this.dialect.itemsPath(session.userId, { parentId: folderId, limit: LISTING_LIMIT }), session, options);
      const items = answer.Items ?? [];
      const total = answer.TotalRecordCount ?? items.length;
      return { folder: { id: folderId, name: folder.Name ?? folderId }, entries: listedEntries(items), truncated: total > items.length };
    });
  }

  async search(access: LibraryAccess, query: string, options: LibraryCallOptions): Promise<LibraryEntry[]> {
    const term = query.trim();
    if (term === '') return [];
    return this.withSession(access, options, async (session) => {
      const path = this.dialect.itemsPath(session.userId, { searchTerm: term, recursive: true, includeItemTypes: SEARCH_TYPES, limit: SEARCH_LIMIT });
      const answer = await this.getJson<ItemsAnswer>(access, path, session, options);
      return listedEntries(answer.Items ?? []);
    });
  }

  async file(access: LibraryAccess, entryId: string, options: LibraryCallOptions & { refresh: boolean }): Promise<LibraryFile> {
    checkedItemId(entryId, 'entryId');
    return this.withSession(access, options, async (session) => {
      const { item, source } = await this.playable(access, entryId, session, options);
      const base = baseUrl(access.url);
      const headers = this.dialect.authHeaders(session.token, session.device);
      const streams = source.MediaStreams ?? item.MediaStreams ?? [];
      const subtitles: LibrarySubtitle[] = streams.filter(isTextSubtitle).map((stream) => ({
        name: stream.DisplayTitle ?? stream.Title ?? stream.Language ?? `Subtitle ${stream.Index}`,
        ...(stream.Language ? { language: stream.Language } : {}),
        url: base + this.dialect.subtitlePath(item.Id, source.Id, stream.Index),
        headers,
      }));
      return {
        name: item.Name ?? entryId,
        url: base + this.dialect.streamPath(item.Id, source.Id),
        headers,
        type: typeOfContainer(source.Container ?? item.Container),
        identity: `${this.kind}:${base}/${item.Id}`,
        subtitles,
        scope: libraryRoot(base),
      };
    });
  }

  async serverTranscode(access: LibraryAccess, entryId: string, options: LibraryCallOptions & { share: string }): Promise<string> {
    checkedItemId(entryId, 'entryId');
    return this.withSession(access, options, async (session) => {
      const { item, source } = await this.playable(access, entryId, session, options);
      const media = AUDIO_TYPES.has(item.Type ?? '') ? 'Audio' : 'Videos';
      return baseUrl(access.url) + this.dialect.masterPlaylistPath(media, item.Id, { ...transcodeSession(this.kind, access, options.share), mediaSourceId: source.Id });
    });
  }

  /** A video or audio item with its first media source, both ids checked (they go into paths). */
  private async playable(access: LibraryAccess, entryId: string, session: Session, options: LibraryCallOptions): Promise<{ item: MediaBrowserItem; source: MediaBrowserSource & { Id: string } }> {
    const item = await this.getJson<MediaBrowserItem>(access, this.dialect.itemPath(session.userId, entryId), session, options);
    if (!VIDEO_TYPES.has(item.Type ?? '') && !AUDIO_TYPES.has(item.Type ?? '')) {
      throw new AppError('invalid_argument', `the ${this.label} item ${entryId} is a ${item.Type ?? 'item'}, not a video or audio file`, [{ key: 'entryId', message: 'not a playable file' }]);
    }
    const source = item.MediaSources?.[0];
    if (!source?.Id) throw new AppError('not_found', `the ${this.label} item ${entryId} has no media source to play`);
    // Both go into the stream's path: the server's answer gets the same scrutiny as a client's id.
    if (!isItemId(item.Id) || !MEDIA_SOURCE_ID.test(source.Id)) throw new AppError('bad_gateway', `the ${this.label} server answered an item or media source id that is not an id`);
    return { item, source: { ...source, Id: source.Id } };
  }

  /** Runs `call` with a session, logging in again once if the server stopped honouring the cached token. */
  private async withSession<T>(access: LibraryAccess, options: LibraryCallOptions, call: (session: Session) => Promise<T>): Promise<T> {
    const key = sessionKey(this.kind, access);
    let session = this.sessions.get(key);
    const cached = session !== undefined;
    session ??= await this.signIn(access, options);
    this.remember(key, session);
    try {
      return await call(session);
    } catch (err) {
      if (!(err instanceof TokenRefused) || !cached) throw this.explain(err, access);
      this.sessions.delete(key);
    }
    const fresh = await this.signIn(access, options);
    this.remember(key, fresh);
    try {
      return await call(fresh);
    } catch (err) {
      throw this.explain(err, access);
    }
  }

  private remember(key: string, session: Session): void {
    this.sessions.delete(key);
    this.sessions.set(key, session);
    while (this.sessions.size > SESSION_CACHE_SIZE) this.sessions.delete(this.sessions.keys().next().value!);
  }

  private explain(err: unknown, access: LibraryAccess): unknown {
    if (!(err instanceof TokenRefused)) return err;
    return access.username === ''
      ? AppError.invalid([{ key: 'secret', message: `the ${this.label} server refused this API key` }])
      : AppError.invalid([{ key: 'secret', message: `the ${this.label} server no longer accepts the sign-in of ${access.username}` }]);
  }

  private async signIn(access: LibraryAccess, options: LibraryCallOptions): Promise<Session> {
    if (access.username === '') return this.apiKeySession(access, options);
    const body = Buffer.from(JSON.stringify({ Username: access.username, Pw: access.secret }));
    const reply = await this.client(access, options).request({
      url: baseUrl(access.url) + '/Users/AuthenticateByName',
      method: 'POST',
      headers: this.dialect.authHeaders(null, deviceId(this.kind, access)),
      readHeaders: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal: options.signal,
    });
    if (reply.status === 401 || reply.status === 403) {
      reply.body.resume();
      throw AppError.invalid([
        { key: 'secret', message: `the ${this.label} server refused the user name and password` },
        { key: 'username', message: `the ${this.label} server refused the user name and password` },
      ]);
    }
    const answer = await this.parse<{ AccessToken?: string; User?: { Id?: string } }>(reply, 'sign-in');
    if (!answer.AccessToken || !answer.User?.Id) throw new AppError('bad_gateway', `the ${this.label} server's sign-in answer has no access token or user`);
    return { token: answer.AccessToken, userId: answer.User.Id, device: deviceId(this.kind, access) };
  }

  /**
   * An API key belongs to no user, yet views, items and their visibility are per user: browse as
   * the server's first administrator (the person who made the key can see everything anyway).
   */
  private async apiKeySession(access: LibraryAccess, options: LibraryCallOptions): Promise<Session> {
    const session = { token: access.secret, userId: '', device: deviceId(this.kind, access) };
    let users: UserDto[];
    try {
      users = await this.getJson<UserDto[]>(access, this.dialect.usersPath(), session, options);
    } catch (err) {
      throw this.explain(err, access);
    }
    const enabled = users.filter((user) => !user.Policy?.IsDisabled);
    const chosen = enabled.find((user) => user.Policy?.IsAdministrator) ?? enabled[0];
    if (!chosen) throw new AppError('not_found', `the ${this.label} server has no enabled user whose libraries the API key could browse`);
    return { ...session, userId: chosen.Id };
  }

  private async getJson<T>(access: LibraryAccess, path: string, session: Session, options: LibraryCallOptions): Promise<T> {
    const reply = await this.client(access, options).request({
      url: baseUrl(access.url) + path,
      headers: this.dialect.authHeaders(session.token, session.device),
      readHeaders: { accept: 'application/json' },
      signal: options.signal,
    });
    if (reply.status === 401) {
      reply.body.resume();
      throw new TokenRefused();
    }
    if (reply.status === 404 || reply.status === 400) {
      reply.body.resume();
      throw new AppError('not_found', `the ${this.label} server has no such item (${reply.status})`);
    }
    return this.parse<T>(reply, 'answer');
  }

  private async parse<T>(reply: Awaited<ReturnType<UpstreamClient['request']>>, what: string): Promise<T> {
    if (reply.status < 200 || reply.status > 299) {
      reply.body.resume();
      throw new AppError('bad_gateway', `the ${this.label} server answered ${reply.status} to the ${what}`);
    }
    const bytes = await readLimited(reply, ANSWER_LIMIT_BYTES, `${this.label} ${what}`);
    try {
      return JSON.parse(bytes.toString('utf8')) as T;
    } catch {
      throw new AppError('bad_gateway', `the ${this.label} server's ${what} is not JSON`);
    }
  }
}

/** The server refused a token it had issued or an API key (401 after sign-in). */
class TokenRefused extends Error {
  constructor() {
    super('the server refused the token');
  }
}

function sessionKey(kind: string, access: LibraryAccess): string {
  return createHash('sha256').update(JSON.stringify([kind, baseUrl(access.url), access.username, access.secret])).digest('base64url');
}

/** The server's base URL without a trailing slash (a server may live under a path, e.g. /jellyfin). */
export function baseUrl(text: string): string {
  const url = new URL(text);
  return url.origin + url.pathname.replace(/(?<!\/)\/+$/, '');
}

/** A listing's entries in order, without items whose id is not an id (a client could not name them back). */
function listedEntries(items: MediaBrowserItem[]): LibraryEntry[] {
  return sortEntries(items.filter((item) => typeof item.Id === 'string' && isItemId(item.Id))).map(toEntry);
}

export function toEntry(item: MediaBrowserItem): LibraryEntry {
  const entry: LibraryEntry = { id: item.Id, name: item.Name ?? item.Id, kind: kindOf(item) };
  if (typeof item.RunTimeTicks === 'number' && item.RunTimeTicks > 0) entry.duration = item.RunTimeTicks / 10_000_000;
  const size = item.MediaSources?.[0]?.Size;
  if (typeof size === 'number') entry.size = size;
  return entry;
}

function kindOf(item: MediaBrowserItem): LibraryEntryKind {
  const type = item.Type ?? '';
  if (FOLDER_TYPES.has(type) || (item.IsFolder && !VIDEO_TYPES.has(type) && !AUDIO_TYPES.has(type))) return 'folder';
  if (VIDEO_TYPES.has(type)) return 'video';
  if (AUDIO_TYPES.has(type)) return 'audio';
  return 'other';
}

/** Folders first, then files; seasons and episodes in their index order, everything else by name. */
export function sortEntries(items: MediaBrowserItem[]): MediaBrowserItem[] {
  const ordered = (item: MediaBrowserItem): boolean => (item.Type === 'Season' || item.Type === 'Episode') && typeof item.IndexNumber === 'number';
  return [...items].sort((a, b) => {
    const folderA = kindOf(a) === 'folder' ? 0 : 1;
    const folderB = kindOf(b) === 'folder' ? 0 : 1;
    if (folderA !== folderB) return folderA - folderB;
    if (ordered(a) && ordered(b)) {
      const season = (a.ParentIndexNumber ?? 0) - (b.ParentIndexNumber ?? 0);
      if (season !== 0) return season;
      return a.IndexNumber! - b.IndexNumber!;
    }
    if (ordered(a) !== ordered(b)) return ordered(a) ? -1 : 1;
    return (a.Name ?? '').localeCompare(b.Name ?? '', undefined, { numeric: true, sensitivity: 'base' });
  });
}

function isTextSubtitle(stream: MediaBrowserStream): boolean {
  if (stream.Type !== 'Subtitle') return false;
  if (stream.IsTextSubtitleStream === false) return false;
  return !IMAGE_SUBTITLE_CODECS.has((stream.Codec ?? '').toLowerCase());
}

function typeOfContainer(container: string | null | undefined): SourceType {
  const first = (container ?? '').split(',')[0]!.trim().toLowerCase();
  if (first === 'flv') return 'flv';
  if (first === 'm3u8' || first === 'hls') return 'hls';
  return 'file';
}

/** `Key="value"` pairs of a MediaBrowser authorization header, quotes in values dropped. */
export function authorizationParams(params: Record<string, string>): string {
  return Object.entries(params)
    .map(([name, value]) => `${name}="${value.replace(/["\\\r\n]/g, '')}"`)
    .join(', ');
}

/**
 * A device id per server and user: a new sign-in replaces the session of the same user and
 * device (Jellyfin revokes the older token), so each connection signing in as its own device
 * keeps two connections of one user from logging each other out, and re-logins do not pile up.
 */
export function deviceId(kind: string, access: LibraryAccess): string {
  return createHash('sha256').update(JSON.stringify(['svc', kind, baseUrl(access.url), access.username])).digest('hex').slice(0, 32);
}

/** The play session a server transcode runs in. */
export interface TranscodeSession {
  playSessionId: string;
  deviceId: string;
}

/**
 * The play session and device of one room's server transcode of one item (`share` names the
 * room and item). Servers key a transcode by them: Jellyfin names the job's output after the
 * DeviceId and PlaySessionId and finds, restarts (on a seek) and stops the job by them; Emby
 * likewise. So every member of the room, whose reads the proxy sends with the same pair, reads
 * one server-side transcode, where a pair per viewer would start one encode per viewer, each
 * restarted by the others' requests. Derived, not stored: stable across requests and replicas,
 * different per room, server and user, and naming nothing (hashes).
 */
export function transcodeSession(kind: string, access: LibraryAccess, share: string): TranscodeSession {
  const hash = (purpose: string): string => createHash('sha256').update(JSON.stringify(['svc', purpose, kind, baseUrl(access.url), access.username, share])).digest('hex').slice(0, 32);
  return { playSessionId: hash('play session'), deviceId: hash('transcode device') };
}

/** What the server is asked to convert to: the codecs every browser's player takes. */
export const TRANSCODE_TARGET = { videoCodec: 'h264', audioCodec: 'aac', audioChannels: 2, segmentContainer: 'ts' } as const;

/** `name=value` pairs, values URL-encoded, empty ones dropped. */
export function queryString(params: Record<string, string | number | boolean | undefined>): string {
  const parts = Object.entries(params)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([name, value]) => `${name}=${encodeURIComponent(String(value))}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}
