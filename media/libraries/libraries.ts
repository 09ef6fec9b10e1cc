/**
 * Media libraries as members use them (docs/2026-11-26-media-libraries.md): connect one (checked
 * by listing its root before anything is stored), list the ones usable in a room, browse,
 * search, and collect a folder's playable files for the playlist. Who may do what is decided
 * here from the caller's standing in the room, which the route asks the room for:
 *   - a room library is connected, edited and removed with `edit_room_settings` (it configures the
 *     room for everyone, like its other settings);
 *   - a personal library belongs to an account (guests have none) and is usable by its owner
 *     in any room;
 *   - browsing and adding need `create_media_resource` in the room, and a library usable there
 *     (the room's, or the caller's own). Another user's personal library is `not_found`, not
 *     `forbidden`: its existence is not anyone else's business.
 */
import { AppError, isAppError, type FieldIssue } from '../../errors/index.js';
import { ADD_FOLDER_MAX_FOLDERS, ADD_FOLDER_MAX_ITEMS, type LibraryTranscoder } from '../../contracts/http/libraries.js';
import { LIBRARY_LIMITS } from './access-check.js';
import type { LibraryAccess, LibraryCallOptions, LibraryConnector, LibraryEntry, LibraryListing, LibrarySearch } from './connector.js';
import type { LibraryItemUrls } from './item-url.js';
import type { LibraryHttp } from './library-scope.js';
import type { LibraryChanges, LibraryOwner, LibraryRecord, LibraryStore } from './library-store.js';
import type { ConnectorRegistry } from './registry.js';
import { searchAnswer } from './search.js';

/** What the room says about the caller: their account (null for a guest) and permissions now. */
export interface LibraryStanding {
  userId: string | null;
  permissions: readonly string[];
}

export interface ConnectInput extends LibraryAccess {
  kind: string;
  name: string;
  transcoder: LibraryTranscoder;
}

/** A library opened for one call: its record, its connector and its credentials. */
export interface OpenLibrary {
  record: LibraryRecord;
  connector: LibraryConnector;
  access: LibraryAccess;
  /** The room it was opened in: items added from it are bound to that room. */
  roomId: string;
  /** What the connector reaches the server through for this caller (counting against their budget: ./upstream-budget.ts). */
  http?: LibraryHttp;
}

/** One connector call (a listing, a search walk, a connect check) ends by then. */
const CALL_TIMEOUT_MS = 30_000;

export interface LibrariesOptions {
  store: LibraryStore;
  connectors: ConnectorRegistry;
  urls: LibraryItemUrls;
}

export class MediaLibraries {
  readonly store: LibraryStore;
  readonly connectors: ConnectorRegistry;
  readonly urls: LibraryItemUrls;

  constructor(options: LibrariesOptions) {
    this.store = options.store;
    this.connectors = options.connectors;
    this.urls = options.urls;
  }

  /** The libraries a member may browse in a room: the room's and their own. */
  async usableIn(roomId: string, standing: LibraryStanding): Promise<LibraryRecord[]> {
    requirePermission(standing, 'create_media_resource', 'browse libraries');
    return this.store.usableIn(roomId, standing.userId);
  }

  /** Checks the fields, lists the root with them, and stores the connection only if that worked. */
  async connect(input: ConnectInput, owner: LibraryOwner, createdBy: string, standing?: LibraryStanding): Promise<LibraryRecord> {
    if (owner.kind === 'room') requirePermission(standing ?? { userId: null, permissions: [] }, 'edit_room_settings', 'connect a library for the room');
    const issues: FieldIssue[] = [];
    const name = input.name.trim();
    if (name.length === 0 || [...name].length > LIBRARY_LIMITS.nameMaxChars) issues.push({ key: 'name', message: `must be 1..${LIBRARY_LIMITS.nameMaxChars} characters` });
    if (!this.connectors.has(input.kind)) {
      issues.push({ key: 'kind', message: `must be one of ${this.connectors.list().map((c) => c.kind).join(', ')}` });
      throw AppError.invalid(issues);
    }
    const connector = this.connectors.require(input.kind);
    const access: LibraryAccess = { url: input.url.trim(), username: input.username, secret: input.secret };
    issues.push(...connector.check(access), ...transcoderIssues(connector, input.transcoder));
    if (issues.length > 0) throw AppError.invalid(issues);
    try {
      await connector.list(access, null, { signal: AbortSignal.timeout(CALL_TIMEOUT_MS) });
    } catch (err) {
      throw connectFailure(err);
    }
    return this.store.insert({ ...access, kind: input.kind, name, owner, transcoder: input.transcoder, createdBy });
  }

  /** Renames a library or changes who converts its items: its owner (personal), or `edit_room_settings` in its room. */
  async edit(libraryId: string, changes: LibraryChanges, by: { userId: string | null; roomId?: string; standing?: LibraryStanding }): Promise<LibraryRecord> {
    const record = await this.editable(libraryId, by, 'edit the room\'s library');
    const issues: FieldIssue[] = [];
    const name = changes.name?.trim();
    if (name !== undefined && (name.length === 0 || [...name].length > LIBRARY_LIMITS.nameMaxChars)) issues.push({ key: 'name', message: `must be 1..${LIBRARY_LIMITS.nameMaxChars} characters` });
    if (changes.transcoder !== undefined) issues.push(...transcoderIssues(this.connectors.require(record.kind), changes.transcoder));
    if (issues.length > 0) throw AppError.invalid(issues);
    const updated = await this.store.update(libraryId, { ...(name !== undefined ? { name } : {}), ...(changes.transcoder !== undefined ? { transcoder: changes.transcoder } : {}) });
    if (!updated) throw new AppError('not_found', `library ${libraryId} was removed`);
    return updated;
  }

  /** Removes a library: its owner (personal), or `edit_room_settings` in its room. */
  async remove(libraryId: string, by: { userId: string | null; roomId?: string; standing?: LibraryStanding }): Promise<void> {
    await this.editable(libraryId, by, 'remove the room\'s library');
    await this.store.delete(libraryId);
  }

  /** The library if `by` may change it: their own, or the room's with `edit_room_settings`. */
  private async editable(libraryId: string, by: { userId: string | null; roomId?: string; standing?: LibraryStanding }, what: string): Promise<LibraryRecord> {
    const record = await this.store.get(libraryId);
    const mine = record?.owner.kind === 'user' && by.userId !== null && record.owner.userId === by.userId;
    const roomsOwn = record?.owner.kind === 'room' && by.roomId !== undefined && record.owner.roomId === by.roomId;
    if (!record || (!mine && !roomsOwn)) throw new AppError('not_found', `no library ${libraryId} ${by.roomId ? 'in this room' : 'of yours'}`);
    if (roomsOwn) requirePermission(by.standing ?? { userId: null, permissions: [] }, 'edit_room_settings', what);
    return record;
  }

  /** A library the member may browse in this room, opened for connector calls. */
  async open(roomId: string, libraryId: string, standing: LibraryStanding): Promise<OpenLibrary> {
    requirePermission(standing, 'create_media_resource', 'browse libraries');
    const record = await this.store.get(libraryId);
    const usable =
      record !== null &&
      ((record.owner.kind === 'room' && record.owner.roomId === roomId) || (record.owner.kind === 'user' && standing.userId !== null && record.owner.userId === standing.userId));
    if (!record || !usable) throw new AppError('not_found', `no library ${libraryId} usable in this room (it is the room's or your own)`);
    const access = await this.store.access(libraryId);
    if (!access) throw new AppError('not_found', `library ${libraryId} was removed`);
    return { record, connector: this.connectors.require(record.kind), access, roomId };
  }

  list(library: OpenLibrary, folderId: string | null): Promise<LibraryListing> {
    return library.connector.list(library.access, folderId, callOptions(library, CALL_TIMEOUT_MS));
  }

  /** One file to add: asked of its library first, so an id that names nothing playable is refused before the playlist changes, and the title defaults to the library's name for it. */
  async oneFile(library: OpenLibrary, entryId: string): Promise<{ id: string; name: string }> {
    const file = await library.connector.file(library.access, entryId, { ...callOptions(library, CALL_TIMEOUT_MS), refresh: false });
    return { id: entryId, name: file.name };
  }

  async search(library: OpenLibrary, query: string): Promise<LibrarySearch> {
    return searchAnswer(await library.connector.search(library.access, query, callOptions(library, CALL_TIMEOUT_MS)));
  }

  /**
   * A folder's video and audio files for the playlist: its own files in listing order, then each
   * subfolder's the same way, until `ADD_FOLDER_MAX_ITEMS` files or `ADD_FOLDER_MAX_FOLDERS`
   * folders (`capped` then says more may have been there).
   */
  async playableFiles(library: OpenLibrary, folderId: string): Promise<{ files: LibraryEntry[]; capped: boolean }> {
    const options = callOptions(library, CALL_TIMEOUT_MS * 2);
    const files: LibraryEntry[] = [];
    let folders = 0;
    let capped = false;
    const visit = async (id: string): Promise<void> => {
      if (folders >= ADD_FOLDER_MAX_FOLDERS) {
        capped = true;
        return;
      }
      folders += 1;
      const listing = await library.connector.list(library.access, id, options);
      if (listing.truncated) capped = true;
      for (const entry of listing.entries) {
        if (entry.kind !== 'video' && entry.kind !== 'audio') continue;
        if (files.length >= ADD_FOLDER_MAX_ITEMS) {
          capped = true;
          return;
        }
        files.push(entry);
      }
      for (const entry of listing.entries) {
        if (entry.kind !== 'folder') continue;
        if (files.length >= ADD_FOLDER_MAX_ITEMS) {
          capped = true;
          return;
        }
        await visit(entry.id);
      }
    };
    await visit(folderId);
    return { files, capped };
  }

  /** The playlist fields of an entry: provider `library`, a URL naming it and the room it is added in, signed; always proxied. */
  itemFields(library: Pick<OpenLibrary, 'record' | 'roomId'>, entry: { id: string; name: string }): { title: string; url: string; provider: 'library'; proxy: true } {
    return { title: entry.name.slice(0, 200) || entry.id, url: this.urls.url({ libraryId: library.record.id, entryId: entry.id, roomId: library.roomId }), provider: 'library', proxy: true };
  }
}

/** One connector call's options: its deadline, and the caller's counting client when there is one. */
function callOptions(library: OpenLibrary, timeoutMs: number): LibraryCallOptions {
  return { signal: AbortSignal.timeout(timeoutMs), ...(library.http ? { http: library.http } : {}) };
}

function requirePermission(standing: LibraryStanding, permission: string, what: string): void {
  if (!standing.permissions.includes(permission)) throw new AppError('forbidden', `to ${what} you need the ${permission} permission in this room`);
}

/** `server` only for a kind whose servers convert media themselves (Jellyfin, Emby). */
function transcoderIssues(connector: LibraryConnector, transcoder: LibraryTranscoder): FieldIssue[] {
  if (transcoder !== 'server' || connector.serverTranscode) return [];
  return [{ key: 'transcoder', message: `a ${connector.label} server does not convert media itself: only Jellyfin and Emby libraries take server; ${connector.label} libraries are converted by svc` }];
}

/** A failed check of a new connection as the field to fix: the connector's own, or `url`. */
function connectFailure(err: unknown): unknown {
  if (!isAppError(err)) return err;
  if (err.issues.length > 0) return AppError.invalid(err.issues);
  if (['bad_gateway', 'deadline_exceeded', 'forbidden', 'not_found'].includes(err.code)) {
    return AppError.invalid([{ key: 'url', message: `could not be listed: ${err.message}` }]);
  }
  return err;
}
