/**
 * A search's answer with whether it is whole. `LibraryConnector.search` may answer a plain list
 * (the server searched everything: Jellyfin, Emby) or this (a walk that stopped at its cap:
 * WebDAV; a server that pages: Alist); `searchAnswer` makes both one shape for the API.
 */
import type { LibraryEntry, LibrarySearch } from './connector.js';

export function searchAnswer(result: LibraryEntry[] | LibrarySearch): LibrarySearch {
  return Array.isArray(result) ? { entries: result, truncated: false } : result;
}
