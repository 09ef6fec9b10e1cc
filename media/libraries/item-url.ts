/**
 * The `url` of a playlist item added from a library: `library:<libraryId>/<entry id,
 * url-encoded>?room=<roomId>&sig=<mac>`. It names the library, the entry and the room it was
 * added in, and holds no secret (every member sees item URLs). The MAC (HMAC-SHA256 under a key
 * derived from `credential_encryption_key`) proves this service wrote the URL after checking
 * that the adder may use the library in that room; without it, anyone who may add media could
 * type a URL naming someone else's library and entry, and the `library` provider would read it
 * with that library's credentials. The room in it binds the link to that room: copied into
 * another room it is refused when added, and names nothing when resolved there
 * (docs/2026-11-26-media-libraries.md, "Item URLs").
 *
 * Links written before rooms were bound (`library:<libraryId>/<entry>?sig=<mac>`, MAC over
 * library and entry) still parse, with `roomId: null`: items that hold them play only where their
 * library is usable now (the room's own library, or a personal library whose owner is a member),
 * and no new item may be added with one.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export const LIBRARY_URL_SCHEME = 'library:';

export interface LibraryItemRef {
  libraryId: string;
  entryId: string;
}

/** A parsed item URL: `roomId` is the room it was signed for, null for a link of the old form. */
export interface SignedLibraryItem extends LibraryItemRef {
  roomId: string | null;
}

const BOUND = /^library:([A-Za-z0-9_-]{1,64})\/([^?#\s]+)\?room=([A-Za-z0-9_-]{1,128})&sig=([A-Za-z0-9_-]{43})$/;
const UNBOUND = /^library:([A-Za-z0-9_-]{1,64})\/([^?#\s]+)\?sig=([A-Za-z0-9_-]{43})$/;

export function libraryItemKey(credentialEncryptionKey: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(credentialEncryptionKey, 'hex'), Buffer.alloc(0), 'svc library item urls', 32));
}

export class LibraryItemUrls {
  constructor(private readonly key: Buffer) {}

  /** The URL of an entry added in room `roomId`. */
  url(ref: LibraryItemRef & { roomId: string }): string {
    return `${LIBRARY_URL_SCHEME}${ref.libraryId}/${encodeURIComponent(ref.entryId)}?room=${ref.roomId}&sig=${this.mac(ref)}`;
  }

  /** The library, entry and room a URL names, or null when it is not one this service signed. */
  parse(url: string): SignedLibraryItem | null {
    const bound = BOUND.exec(url);
    if (bound) {
      const entryId = decoded(bound[2]!);
      if (entryId === null) return null;
      const ref = { libraryId: bound[1]!, entryId, roomId: bound[3]! };
      return sameMac(this.mac(ref), bound[4]!) ? ref : null;
    }
    const unbound = UNBOUND.exec(url);
    if (!unbound) return null;
    const entryId = decoded(unbound[2]!);
    if (entryId === null) return null;
    const ref = { libraryId: unbound[1]!, entryId, roomId: null };
    return sameMac(this.mac(ref), unbound[3]!) ? ref : null;
  }

  /** The room, when there is one, comes first and under its own label: no old MAC can pass for a new one. */
  private mac(ref: LibraryItemRef & { roomId: string | null }): string {
    const text = ref.roomId === null ? `${ref.libraryId}\n${ref.entryId}` : `room\n${ref.roomId}\n${ref.libraryId}\n${ref.entryId}`;
    return createHmac('sha256', this.key).update(text).digest('base64url');
  }
}

function decoded(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function sameMac(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
