/**
 * Connected media libraries and drives (docs/2026-11-26-media-libraries.md): WebDAV, Alist /
 * OpenList (and Jellyfin, Emby) that members connect once and browse in the add-media dialog.
 * Personal libraries (`/api/libraries`) belong to an account and are usable by it in any room
 * where it may add media; a room's (`/api/rooms/{roomId}/libraries`) are connected with
 * edit_room_settings and usable by its members who may add media. Browsing, searching and adding
 * are always in a room. No answer ever carries a library's password or token. A leaf module.
 */
import { z } from 'zod';
import { oneLineText, trimmedText } from '../text.js';
import { ms, MediaItem, PlaylistFolder } from '../room/model.js';
import { defineEndpoint } from './endpoint.js';
import { idempotencyHeaders, roomId, seq } from './room.js';

const TAGS = ['libraries'];
const ROOM_ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
/** A library's server failing or refusing is a 502 naming it. */
const BROWSE_ERRORS = [...ROOM_ERRORS, 'bad_gateway'] as const;

export const libraryId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: 'must be a library id (letters, digits, "_" and "-")' })
  .meta({ description: 'The library id (from a listing or a connect answer)' });

const entryId = oneLineText().min(1).max(4096).meta({ description: 'An entry id from a listing or search (opaque: a path for WebDAV and Alist)' });

/**
 * Who converts the library's items that browsers cannot play as they are (their `reach` is not
 * `direct`): `svc`, this service's shared transcode (the default), or `server`, the Jellyfin or
 * Emby server's own HLS transcode, one session per room and item. Only Jellyfin and Emby
 * libraries take `server` (docs/2026-11-29-how-items-reach-browsers.md).
 */
export const LIBRARY_TRANSCODERS = ['svc', 'server'] as const;
export const LibraryTranscoder = z.enum(LIBRARY_TRANSCODERS).meta({
  id: 'LibraryTranscoder',
  description:
    "Who converts items browsers cannot play as they are: svc (this service's shared transcode, the default) or server (the Jellyfin or Emby server's own HLS transcode, one session per room and item; Jellyfin and Emby only)",
});
export type LibraryTranscoder = z.infer<typeof LibraryTranscoder>;

export const LibraryKind = z.strictObject({ kind: z.string(), label: z.string() }).meta({ id: 'LibraryKind' });

export const Library = z
  .strictObject({
    id: z.string(),
    kind: z.string().meta({ description: 'webdav, alist, ... (one of kinds)' }),
    name: z.string(),
    url: z.string().meta({ description: 'The server URL as entered (never holds credentials)' }),
    username: z.string().meta({ description: '"" when none' }),
    owner: z
      .discriminatedUnion('kind', [z.strictObject({ kind: z.literal('user'), userId: z.string() }), z.strictObject({ kind: z.literal('room'), roomId: z.string() })])
      .meta({ description: 'A personal library (its user) or a room\'s' }),
    transcoder: LibraryTranscoder,
    createdAt: ms('Connected'),
  })
  .meta({ id: 'Library' });

export const LibraryList = z
  .strictObject({
    libraries: z.array(Library),
    kinds: z.array(LibraryKind).meta({ description: 'The kinds of library this server can connect' }),
  })
  .meta({ id: 'LibraryList' });

export const LibraryEntry = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    kind: z.enum(['folder', 'video', 'audio', 'other']),
    size: z.number().optional().meta({ description: 'Bytes, when the server says' }),
    duration: z.number().optional().meta({ description: 'Seconds, when the server says' }),
  })
  .meta({ id: 'LibraryEntry' });
export type LibraryEntry = z.infer<typeof LibraryEntry>;

export const LibraryListing = z
  .strictObject({
    folder: z.strictObject({ id: z.string(), name: z.string() }),
    entries: z.array(LibraryEntry).meta({ description: 'Folders first, then files, by name' }),
    truncated: z.boolean().meta({ description: 'The folder has more entries than one listing shows' }),
  })
  .meta({ id: 'LibraryListing' });
export type LibraryListing = z.infer<typeof LibraryListing>;

export const LibrarySearchAnswer = z
  .strictObject({
    entries: z.array(LibraryEntry),
    truncated: z.boolean().meta({ description: 'The search stopped at its cap (folders walked, results): more may match' }),
  })
  .meta({ id: 'LibrarySearch' });

/** The kinds of library this server connects (media/libraries/registry.ts registers one connector each). */
export const LIBRARY_KINDS = ['webdav', 'alist', 'jellyfin', 'emby'] as const;

const connectFields = {
  kind: z.enum(LIBRARY_KINDS).meta({ description: 'webdav (a WebDAV collection), alist (an Alist or OpenList site), jellyfin or emby' }),
  name: trimmedText({ lines: false, maxChars: 80, totalChars: 160 }).meta({ description: '1..80 characters after trimming' }),
  url: oneLineText().min(1).max(2048).meta({ description: 'The server: a WebDAV collection URL, an Alist site, ...' }),
  username: oneLineText().max(256).optional().meta({ description: 'Absent or "" when the server takes a token alone' }),
  secret: z.string().max(4096).optional().meta({ description: 'Password or token; stored encrypted, never answered' }),
  transcoder: LibraryTranscoder.optional().meta({ description: 'svc when absent; server only for jellyfin and emby' }),
};
const CONNECT_DESCRIPTION =
  'The server lists the library\'s root with the credentials first and stores nothing if that fails: refused credentials name `secret` (or `username`), a server that cannot be reached or is not of this kind names `url`.';
const ConnectLibrary = z.strictObject(connectFields).meta({ id: 'ConnectLibrary' });
const EditLibrary = z
  .strictObject({ name: connectFields.name.optional(), transcoder: connectFields.transcoder })
  .refine((body) => body.name !== undefined || body.transcoder !== undefined, { error: 'name or transcoder is required' })
  .meta({ id: 'EditLibrary' });
const EDIT_DESCRIPTION = 'Changes what is given, nothing else (the address and credentials are set by connecting again). `transcoder: server` on a library that is not Jellyfin or Emby is refused naming `transcoder`. Items already added play by the new setting from their next play request.';
const LibraryAnswer = z.strictObject({ library: Library }).meta({ id: 'LibraryAnswer' });

export const listMyLibraries = defineEndpoint({
  method: 'get',
  path: '/api/libraries',
  operationId: 'listMyLibraries',
  summary: 'Your personal libraries, and the kinds this server can connect',
  tags: TAGS,
  access: 'user',
  responses: { 200: { description: 'Your libraries', schema: LibraryList } },
  errors: ['unauthenticated', 'forbidden'],
});

export const connectMyLibrary = defineEndpoint({
  method: 'post',
  path: '/api/libraries',
  operationId: 'connectMyLibrary',
  summary: 'Connect a personal library (accounts only), usable by you in any room where you may add media',
  description: CONNECT_DESCRIPTION,
  tags: TAGS,
  access: 'user',
  body: ConnectLibrary,
  responses: { 201: { description: 'Connected', schema: LibraryAnswer } },
  errors: ['unauthenticated', 'forbidden', 'limit_exceeded', 'rate_limited', 'deadline_exceeded'],
});

export const editMyLibrary = defineEndpoint({
  method: 'patch',
  path: '/api/libraries/{libraryId}',
  operationId: 'editMyLibrary',
  summary: 'Rename one of your personal libraries, or choose who converts its items',
  description: EDIT_DESCRIPTION,
  tags: TAGS,
  access: 'user',
  params: z.strictObject({ libraryId }),
  body: EditLibrary,
  responses: { 200: { description: 'Changed', schema: LibraryAnswer } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

export const deleteMyLibrary = defineEndpoint({
  method: 'delete',
  path: '/api/libraries/{libraryId}',
  operationId: 'deleteMyLibrary',
  summary: 'Remove one of your personal libraries; items added from it stop playing (not_found)',
  tags: TAGS,
  access: 'user',
  params: z.strictObject({ libraryId }),
  responses: { 204: { description: 'Removed' } },
  errors: ['unauthenticated', 'forbidden', 'not_found'],
});

const roomParams = z.strictObject({ roomId });
const libraryParams = z.strictObject({ roomId, libraryId });

export const listRoomLibraries = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/libraries',
  operationId: 'listRoomLibraries',
  summary: 'The libraries you may browse in this room: the room\'s and your own (create_media_resource)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'Usable libraries, the room\'s and yours, oldest first', schema: LibraryList } },
  errors: [...ROOM_ERRORS],
});

export const connectRoomLibrary = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/libraries',
  operationId: 'connectRoomLibrary',
  summary: 'Connect a library for the room, usable by its members who may add media (edit_room_settings)',
  description: CONNECT_DESCRIPTION,
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  body: ConnectLibrary,
  responses: { 201: { description: 'Connected', schema: LibraryAnswer } },
  errors: [...ROOM_ERRORS, 'limit_exceeded'],
});

export const editRoomLibrary = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}/libraries/{libraryId}',
  operationId: 'editRoomLibrary',
  summary: 'Rename a room library, or choose who converts its items (edit_room_settings); or one of your own',
  description: EDIT_DESCRIPTION,
  tags: TAGS,
  access: 'user_or_guest',
  params: libraryParams,
  body: EditLibrary,
  responses: { 200: { description: 'Changed', schema: LibraryAnswer } },
  errors: [...ROOM_ERRORS],
});

export const deleteRoomLibrary = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/libraries/{libraryId}',
  operationId: 'deleteRoomLibrary',
  summary: 'Remove a room library (edit_room_settings), or one of your own; items added from it stop playing (not_found)',
  tags: TAGS,
  access: 'user_or_guest',
  params: libraryParams,
  responses: { 204: { description: 'Removed' } },
  errors: [...ROOM_ERRORS],
});

export const listLibraryFolder = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/libraries/{libraryId}/entries',
  operationId: 'listLibraryFolder',
  summary: 'A folder of a library usable in this room; the root without folder (create_media_resource)',
  tags: TAGS,
  access: 'user_or_guest',
  params: libraryParams,
  query: z.strictObject({ folder: entryId.optional() }),
  responses: { 200: { description: 'The folder', schema: LibraryListing } },
  errors: [...BROWSE_ERRORS],
});

export const searchLibrary = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/libraries/{libraryId}/search',
  operationId: 'searchLibrary',
  summary: 'Files and folders of a library whose name matches, as far as its server can search (create_media_resource)',
  description: 'WebDAV has no search most servers serve: the server walks folders breadth first up to a cap and says `truncated`. An Alist site without a search index answers `unavailable`.',
  tags: TAGS,
  access: 'user_or_guest',
  params: libraryParams,
  query: z.strictObject({ q: oneLineText().min(1).max(200) }),
  responses: { 200: { description: 'Matches', schema: LibrarySearchAnswer } },
  errors: [...BROWSE_ERRORS],
});

export const ADD_FOLDER_MAX_ITEMS = 200;
export const ADD_FOLDER_MAX_FOLDERS = 50;

export const addFromLibrary = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/libraries/{libraryId}/add',
  operationId: 'addFromLibrary',
  summary: 'Add a file, or a folder\'s video and audio files, to the end of the playlist (create_media_resource)',
  description: `A folder adds its own files in listing order, then each subfolder's, up to ${ADD_FOLDER_MAX_ITEMS} items (and ${ADD_FOLDER_MAX_FOLDERS} folders); \`capped\` says it stopped there. A folder becomes a playlist folder named after it (\`folder\` in the answer), holding the items. Items have provider \`library\` and always play through the media proxy. Like the bulk add, a refusal after the first item (the playlist is full) keeps what was added and names it in \`rejected\`.`,
  tags: TAGS,
  access: 'user_or_guest',
  params: libraryParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    entryId,
    folder: z.boolean().meta({ description: 'The entry is a folder (its kind in the listing)' }),
    title: oneLineText()
      .min(1)
      .max(400)
      .optional()
      .meta({ description: "For a file: the item's title; for a folder: the playlist folder's title (the last segment of its id when absent)" }),
  }),
  responses: {
    201: {
      description: 'What was added, in order',
      schema: z
        .strictObject({
          added: z.array(z.strictObject({ item: MediaItem, index: z.number().int() })),
          capped: z.boolean().meta({ description: 'The folder held more than one add takes' }),
          folder: PlaylistFolder.optional().meta({ description: 'For a folder: the playlist folder made for it, holding the items' }),
          rejected: z.strictObject({ code: z.string(), message: z.string() }).optional(),
          seq,
        })
        .meta({ id: 'LibraryAddAnswer' }),
    },
  },
  errors: [...BROWSE_ERRORS, 'limit_exceeded', 'conflict'],
});
