/**
 * A media library or drive that members connect once and browse in the add-media dialog:
 * WebDAV (Nextcloud, ownCloud, Synology, rclone, Alist's DAV), Alist / OpenList, Jellyfin,
 * Emby. A connector knows one kind of server: how to list a folder, search, and say where a
 * file's bytes are now. It holds no state; the connection (server URL and credentials, stored
 * sealed with the secret box, per user or per room) is handed to every call.
 *
 * When the server says no, connectors throw the errors of ./refusal.ts, so connecting can name
 * the field to fix (`secret`, `username`, `url`).
 *
 * Connectors reach their servers only through the `UpstreamClient` they are built with, or the
 * one a call hands them (`LibraryCallOptions.http`: the same client, counting requests against
 * the caller's budget), never `fetch`: the URL is chosen by members, and that client applies the
 * SSRF rules, timeouts and size limits (docs/2026-11-23-media-providers.md, "Network access").
 * Every request goes through `confinedClient` (./library-scope.ts): nothing outside the
 * library's root is asked for with its credentials, and entry ids are checked first
 * (./entry-path.ts), naming the field.
 */
import type { FieldIssue } from '../../errors/index.js';
import type { LibraryEntry, LibraryListing } from '../../contracts/http/libraries.js';
import type { SourceType } from '../provider.js';
import type { LibraryHttp } from './library-scope.js';

/** A connection as its owner entered it, with the secret opened. Never sent to clients. */
export interface LibraryAccess {
  /** The server's base URL (a WebDAV collection, an Alist site, a Jellyfin or Emby server). */
  url: string;
  /** '' when the server takes no user name (an API key). */
  username: string;
  /** Password, API key or token; '' when none. */
  secret: string;
}

/**
 * An entry and a folder's listing are what the library endpoints answer
 * (contracts/http/libraries.ts). An entry's `id` is opaque outside the connector: a path
 * (WebDAV, Alist) or an item id (Jellyfin, Emby); folders are anything that holds entries: a
 * directory, a library, a series, a season. A listing's entries come folders first, then files,
 * each by name (series' episodes in their order); `truncated`: the server had more than the
 * connector reads in one listing.
 */
export type { LibraryEntry, LibraryListing } from '../../contracts/http/libraries.js';
export type LibraryEntryKind = LibraryEntry['kind'];

/** A search's answer with whether it is whole (see `LibraryConnector.search`; search.ts makes every answer this shape). */
export interface LibrarySearch {
  entries: LibraryEntry[];
  /** More might match than the connector looked at or answers. */
  truncated: boolean;
}

/** A subtitle stream a library serves beside a file (Jellyfin's and Emby's external and embedded tracks). */
export interface LibrarySubtitle {
  name: string;
  language?: string;
  url: string;
  headers: Record<string, string>;
}

/** Where a file's bytes are now, as the media proxy fetches them (see `Upstream` in ../provider.ts). */
export interface LibraryFile {
  /** The file's name as the library shows it (the default title of an item added from it). */
  name: string;
  url: string;
  headers: Record<string, string>;
  type: SourceType;
  /** Stable across re-resolutions: the slice cache's key. */
  identity: string;
  expiresAt?: number;
  subtitles: LibrarySubtitle[];
  /**
   * The URL prefix everything the file names must stay under (`Upstream.scope`): the library's
   * root, or for a signed link on another host (Alist's raw_url) that link's own folder. A
   * playlist or manifest in the library is read only inside it.
   */
  scope: string;
}

export interface LibraryCallOptions {
  signal: AbortSignal;
  /** Reach the server through this instead of the connector's own client (the route's counting one). */
  http?: LibraryHttp;
}

export interface LibraryConnector {
  /**
   * Stored with connections (`media_libraries.kind`) and registered by it (./registry.ts). Items
   * added from a library all have the provider `library` (media/providers/library.ts), not this.
   */
  readonly kind: string;
  /** Shown in the connect form's choice. */
  readonly label: string;
  /** Checks the access fields before anything is stored (no network): `url`, `username`, `secret`. */
  check(access: LibraryAccess): FieldIssue[];
  /** Lists a folder; `null` is the root. */
  list(access: LibraryAccess, folderId: string | null, options: LibraryCallOptions): Promise<LibraryListing>;
  /**
   * Files and folders whose name matches `query`, as far as the server can search: a plain list
   * when the server searched everything, or a `LibrarySearch` saying it stopped at a cap.
   */
  search(access: LibraryAccess, query: string, options: LibraryCallOptions): Promise<LibraryEntry[] | LibrarySearch>;
  /** Where a file's bytes are now; `refresh` after the last answer stopped working. */
  file(access: LibraryAccess, entryId: string, options: LibraryCallOptions & { refresh: boolean }): Promise<LibraryFile>;
  /**
   * Servers that convert media themselves (Jellyfin, Emby): the URL of the server's HLS master
   * playlist of a file in codecs browsers take (H.264, AAC stereo), for the play session `share`
   * names. The same `share` must give the same URL, so that everyone reading it reads one
   * server-side transcode. The URL lies inside the file's `scope` and is read with its `headers`.
   * Absent: the kind cannot, and a library of it refuses `transcoder: server`.
   */
  serverTranscode?(access: LibraryAccess, entryId: string, options: LibraryCallOptions & { share: string }): Promise<string>;
}
