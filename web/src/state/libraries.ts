/**
 * Media libraries for the add-media dialog (contracts/http/libraries.ts): the ones usable in a
 * room (the room's and the member's own), connecting one (personal or for the room), browsing a
 * folder, searching, and adding a file or a folder to the playlist. Thin calls of the typed API
 * client; the views keep what they show.
 */
import { api, call } from '../api/client.js';
import type { Schemas } from '../api/types.js';

export type Library = Schemas['Library'];
export type LibraryKind = Schemas['LibraryKind'];
export type LibraryEntry = Schemas['LibraryEntry'];
export type LibraryListing = Schemas['LibraryListing'];
export type LibraryAddAnswer = Schemas['LibraryAddAnswer'];
export type LibraryTranscoder = Schemas['LibraryTranscoder'];

export interface ConnectFields {
  kind: string;
  name: string;
  url: string;
  username: string;
  secret: string;
  transcoder: LibraryTranscoder;
}

export function usableLibraries(roomId: string): Promise<Schemas['LibraryList']> {
  return call(api.GET('/api/rooms/{roomId}/libraries', { params: { path: { roomId } } }));
}

/** `forRoom`: the room's library (edit_room_settings); otherwise the caller's own (accounts only). */
export async function connectLibrary(roomId: string, fields: ConnectFields, forRoom: boolean): Promise<Library> {
  // The kinds the form offers are the server's (the listing's kinds).
  const body = { kind: fields.kind as Schemas['ConnectLibrary']['kind'], name: fields.name.trim(), url: fields.url.trim(), ...(fields.username ? { username: fields.username } : {}), ...(fields.secret ? { secret: fields.secret } : {}), ...(fields.transcoder !== 'svc' ? { transcoder: fields.transcoder } : {}) };
  const answer = forRoom
    ? await call(api.POST('/api/rooms/{roomId}/libraries', { params: { path: { roomId } }, body }))
    : await call(api.POST('/api/libraries', { body }));
  return answer.library;
}

/** Who converts the library's files browsers cannot play (its owner, or edit_room_settings for the room's). */
export async function setLibraryTranscoder(roomId: string, libraryId: string, transcoder: LibraryTranscoder): Promise<Library> {
  const answer = await call(api.PATCH('/api/rooms/{roomId}/libraries/{libraryId}', { params: { path: { roomId, libraryId } }, body: { transcoder } }));
  return answer.library;
}

export async function removeLibrary(roomId: string, libraryId: string): Promise<void> {
  await call(api.DELETE('/api/rooms/{roomId}/libraries/{libraryId}', { params: { path: { roomId, libraryId } } }));
}

export function listFolder(roomId: string, libraryId: string, folder: string | null): Promise<LibraryListing> {
  return call(api.GET('/api/rooms/{roomId}/libraries/{libraryId}/entries', { params: { path: { roomId, libraryId }, query: folder === null ? {} : { folder } } }));
}

export function searchLibrary(roomId: string, libraryId: string, q: string): Promise<Schemas['LibrarySearch']> {
  return call(api.GET('/api/rooms/{roomId}/libraries/{libraryId}/search', { params: { path: { roomId, libraryId }, query: { q } } }));
}

export function addFromLibrary(roomId: string, libraryId: string, entry: LibraryEntry): Promise<LibraryAddAnswer> {
  // A folder's name titles the playlist folder it becomes; a file's, the item.
  const body = { entryId: entry.id, folder: entry.kind === 'folder', title: entry.name };
  return call(api.POST('/api/rooms/{roomId}/libraries/{libraryId}/add', { params: { path: { roomId, libraryId } }, body }));
}
