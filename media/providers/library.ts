/**
 * `library`: a file of a connected media library (WebDAV, Alist, Jellyfin, Emby), added from the
 * add-media dialog's library browser. The item's URL names the library, the entry and the room
 * it was added in, signed (media/libraries/item-url.ts); resolving checks that the item is played
 * in that room and that the library is still usable there (the room's own, or a personal library
 * whose owner is still a member: a banned or kicked owner's files stop), loads the library, opens
 * its credentials and asks its connector where the file's bytes are now, and within which folder
 * (`scope`) the proxy may read. The proxy is required: the credentials (a Basic password, a
 * token) never reach members' browsers, and links that expire are resolved again when the
 * upstream refuses them. A library removed since answers `not_found` naming it.
 * docs/2026-11-26-media-libraries.md. A Jellyfin or Emby library set to `transcoder: server`
 * converts its items itself (`sourceTranscode`): docs/2026-11-29-how-items-reach-browsers.md.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import { AppError, type FieldIssue } from '../../errors/index.js';
import type { LibraryItemUrls, SignedLibraryItem } from '../libraries/item-url.js';
import type { LibraryRecord, LibraryStore } from '../libraries/library-store.js';
import type { ConnectorRegistry } from '../libraries/registry.js';
import type { LibraryAccess, LibraryConnector } from '../libraries/connector.js';
import type { MediaProvider, ProvidedSubtitle, ResolveOptions, Upstream } from '../provider.js';

/** How long "may this library be read in this room" is remembered: a proxied movie is hundreds of reads. */
const USABLE_TTL_MS = 5_000;
const USABLE_ENTRIES_MAX = 5_000;

export class LibraryProvider implements MediaProvider {
  readonly name = 'library';
  readonly label = 'From a library';
  readonly proxy = 'required' as const;
  readonly live = false;
  private readonly usable = new Map<string, { at: number; answer: Promise<boolean | null> }>();

  constructor(
    private readonly libraries: { store: Pick<LibraryStore, 'get' | 'access' | 'usableInRoom'>; connectors: ConnectorRegistry; urls: LibraryItemUrls },
    private readonly now: () => number = Date.now,
  ) {}

  check(fields: { url: string; headers: Record<string, string>; roomId?: string }): FieldIssue[] {
    const issues: FieldIssue[] = [];
    const ref = this.libraries.urls.parse(fields.url);
    if (!ref) issues.push({ key: 'url', message: 'is not a library item URL this server made: add files from a library with the library endpoints' });
    else if (ref.roomId === null) issues.push({ key: 'url', message: 'is a library link of an old form, which cannot be added any more: add the file from the library again' });
    else if (fields.roomId !== undefined && ref.roomId !== fields.roomId) issues.push({ key: 'url', message: 'was made for another room: add files from the libraries usable in this room' });
    if (Object.keys(fields.headers).length > 0) issues.push({ key: 'headers', message: 'are not used by library items (the library\'s own credentials are)' });
    return issues;
  }

  async resolve(item: MediaItem, options: ResolveOptions): Promise<Upstream> {
    const { connector, access, entryId } = await this.open(item, options.roomId);
    const file = await connector.file(access, entryId, { signal: options.signal, refresh: options.refresh });
    return {
      url: file.url,
      headers: file.headers,
      type: file.type,
      identity: file.identity,
      scope: file.scope,
      ...(file.expiresAt !== undefined ? { expiresAt: file.expiresAt } : {}),
    };
  }

  /**
   * The library server's own transcode when the library is set to convert there: shared by the
   * room (the connector derives the server's play session from `share`, the room and item).
   */
  async sourceTranscode(item: MediaItem, options: { signal: AbortSignal; roomId: string }): Promise<string | null> {
    const { record, connector, access, entryId } = await this.open(item, options.roomId);
    if (record.transcoder !== 'server' || !connector.serverTranscode) return null;
    return connector.serverTranscode(access, entryId, { signal: options.signal, share: JSON.stringify([options.roomId, item.id]) });
  }

  async readableIn(item: MediaItem, roomId: string): Promise<void> {
    await this.requireUsable(this.signed(item, roomId), roomId);
  }

  /** The library server's subtitle streams for the file (Jellyfin, Emby); WebDAV and Alist have none. */
  async subtitles(item: MediaItem, options: { signal: AbortSignal; roomId: string }): Promise<ProvidedSubtitle[]> {
    const { connector, access, entryId } = await this.open(item, options.roomId);
    return (await connector.file(access, entryId, { signal: options.signal, refresh: false })).subtitles;
  }

  /** The item's library, opened for a read in `roomId`: its connector and credentials, and the entry the item names. */
  private async open(item: MediaItem, roomId: string): Promise<{ record: LibraryRecord; connector: LibraryConnector; access: LibraryAccess; entryId: string }> {
    const ref = this.signed(item, roomId);
    const record = await this.libraries.store.get(ref.libraryId);
    const access = record ? await this.libraries.store.access(ref.libraryId) : null;
    if (!record || !access) throw new AppError('not_found', `the library ${ref.libraryId} this item was added from has been removed`);
    await this.requireUsable(ref, roomId, true);
    return { record, connector: this.libraries.connectors.require(record.kind), access, entryId: ref.entryId };
  }

  /** The item's signed link, when it was signed for `roomId` (or is of the old form, judged by its library). */
  private signed(item: MediaItem, roomId: string): SignedLibraryItem {
    const ref = this.libraries.urls.parse(item.url);
    if (!ref) throw new AppError('not_found', 'this item\'s library link is not valid on this server');
    if (ref.roomId !== null && ref.roomId !== roomId) throw new AppError('not_found', 'this item\'s library link was made for another room');
    return ref;
  }

  /**
   * `forbidden` unless the library may be read in the room now: the room's own library, or a
   * personal library whose owner is still a member (items of the old form are held to this too,
   * whatever room they came from). `fresh` asks the store; otherwise an answer of the last few
   * seconds does.
   */
  private async requireUsable(ref: SignedLibraryItem, roomId: string, fresh = false): Promise<void> {
    const key = `${roomId}\0${ref.libraryId}`;
    const now = this.now();
    let entry = this.usable.get(key);
    if (fresh || !entry || now - entry.at >= USABLE_TTL_MS) {
      entry = { at: now, answer: this.libraries.store.usableInRoom(ref.libraryId, roomId) };
      this.usable.delete(key);
      this.usable.set(key, entry);
      if (this.usable.size > USABLE_ENTRIES_MAX) this.usable.delete(this.usable.keys().next().value!);
      const asked = entry;
      asked.answer.catch(() => {
        if (this.usable.get(key) === asked) this.usable.delete(key);
      });
    }
    const usable = await entry.answer;
    if (usable === null) throw new AppError('not_found', `the library ${ref.libraryId} this item was added from has been removed`);
    if (!usable) {
      throw new AppError('forbidden', `the library ${ref.libraryId} this item was added from is not usable in this room: it belongs to another room, or to someone who is no longer a member of this one`);
    }
  }
}
