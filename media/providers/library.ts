/**
 * `library`: a file of a connected media library (WebDAV, Alist, Jellyfin, Emby), added from the
 * add-media dialog's library browser. The item's URL names the library and the entry, signed
 * (media/libraries/item-url.ts); resolving loads the library, opens its credentials and asks its
 * connector where the file's bytes are now. The proxy is required: the credentials (a Basic
 * password, a token) never reach members' browsers, and links that expire are resolved again
 * when the upstream refuses them. A library removed since answers `not_found` naming it.
 * docs/2026-11-26-media-libraries.md.
 */
import type { MediaItem } from '../../contracts/room/model.js';
import { AppError, type FieldIssue } from '../../errors/app-error.js';
import type { LibraryItemUrls } from '../libraries/item-url.js';
import type { LibraryStore } from '../libraries/library-store.js';
import type { ConnectorRegistry } from '../libraries/registry.js';
import type { LibraryAccess, LibraryConnector } from '../libraries/connector.js';
import type { MediaProvider, ProvidedSubtitle, ResolveOptions, Upstream } from '../provider.js';

export class LibraryProvider implements MediaProvider {
  readonly name = 'library';
  readonly label = 'From a library';
  readonly proxy = 'required' as const;
  readonly live = false;

  constructor(
    private readonly libraries: { store: Pick<LibraryStore, 'get' | 'access'>; connectors: ConnectorRegistry; urls: LibraryItemUrls },
  ) {}

  check(fields: { url: string; headers: Record<string, string> }): FieldIssue[] {
    const issues: FieldIssue[] = [];
    if (!this.libraries.urls.parse(fields.url)) issues.push({ key: 'url', message: 'is not a library item URL this server made: add files from a library with the library endpoints' });
    if (Object.keys(fields.headers).length > 0) issues.push({ key: 'headers', message: 'are not used by library items (the library\'s own credentials are)' });
    return issues;
  }

  async resolve(item: MediaItem, options: ResolveOptions): Promise<Upstream> {
    const { connector, access, entryId } = await this.open(item);
    const file = await connector.file(access, entryId, { signal: options.signal, refresh: options.refresh });
    return {
      url: file.url,
      headers: file.headers,
      type: file.type,
      identity: file.identity,
      ...(file.expiresAt !== undefined ? { expiresAt: file.expiresAt } : {}),
    };
  }

  /** The library server's subtitle streams for the file (Jellyfin, Emby); WebDAV and Alist have none. */
  async subtitles(item: MediaItem, options: { signal: AbortSignal }): Promise<ProvidedSubtitle[]> {
    const { connector, access, entryId } = await this.open(item);
    return (await connector.file(access, entryId, { signal: options.signal, refresh: false })).subtitles;
  }

  /** The item's library, opened: its connector and credentials, and the entry the item names. */
  private async open(item: MediaItem): Promise<{ connector: LibraryConnector; access: LibraryAccess; entryId: string }> {
    const ref = this.libraries.urls.parse(item.url);
    if (!ref) throw new AppError('not_found', 'this item\'s library link is not valid on this server');
    const record = await this.libraries.store.get(ref.libraryId);
    const access = record ? await this.libraries.store.access(ref.libraryId) : null;
    if (!record || !access) throw new AppError('not_found', `the library ${ref.libraryId} this item was added from has been removed`);
    return { connector: this.libraries.connectors.require(record.kind), access, entryId: ref.entryId };
  }
}
