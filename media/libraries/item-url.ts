/**
 * The `url` of a playlist item added from a library: `library:<libraryId>/<entry id,
 * url-encoded>?sig=<mac>`. It names the library and the entry and holds no secret (every member
 * sees item URLs). The MAC (HMAC-SHA256 under a key derived from `credential_encryption_key`)
 * proves this service wrote the URL after checking that the adder may use the library; without
 * it, anyone who may add media could type a URL naming someone else's library and entry, and
 * the `library` provider would read it with that library's credentials. Copying a signed URL
 * shares only the one file its adder already shared.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const LIBRARY_URL_SCHEME = 'library:';

export interface LibraryItemRef {
  libraryId: string;
  entryId: string;
}

export function libraryItemKey(credentialEncryptionKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(credentialEncryptionKey, 'hex'), Buffer.alloc(0), 'svc library item urls', 32));
}

export class LibraryItemUrls {
  constructor(private readonly key: Buffer) {}

  url(ref: LibraryItemRef): string {
    return `${LIBRARY_URL_SCHEME}${ref.libraryId}/${encodeURIComponent(ref.entryId)}?sig=${this.mac(ref)}`;
  }

  /** The library and entry a URL names, or null when it is not one this service signed. */
  parse(url: string): LibraryItemRef | null {
    const match = /^library:([A-Za-z0-9_-]{1,64})\/([^?#\s]+)\?sig=([A-Za-z0-9_-]{43})$/.exec(url);
    if (!match) return null;
    let entryId: string;
    try {
      entryId = decodeURIComponent(match[2]!);
    } catch {
      return null;
    }
    const ref = { libraryId: match[1]!, entryId };
    const expected = Buffer.from(this.mac(ref));
    const given = Buffer.from(match[3]!);
    return expected.length === given.length && timingSafeEqual(expected, given) ? ref : null;
  }

  private mac(ref: LibraryItemRef): string {
    return createHmac('sha256', this.key).update(`${ref.libraryId}\n${ref.entryId}`).digest('base64url');
  }
}
