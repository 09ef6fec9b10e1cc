/**
 * The room's playlist (`/api/rooms/{roomId}/playlist`): read, add one or many, edit, move,
 * remove, clear, and choose what plays. Each change is a room-actor command; adding many is
 * validated as a whole first (docs/2026-11-23-rooms-api.md). A leaf module.
 */
import { z } from 'zod';
import { oneLineText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { subtitleInputs } from '../room/subtitles.js';
import { defineEndpoint } from './endpoint.js';
import { MediaItem, PlaylistFolder, QueueVotes } from '../room/model.js';
import { idempotencyHeaders, mediaId, PlaybackAnswer, playbackGuards, roomId, seq } from './room.js';

const TAGS = ['playlist'];
const ROOM_ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const roomParams = z.strictObject({ roomId });
const itemParams = z.strictObject({ roomId, mediaId });
const folderId = oneLineText().min(1).max(64).meta({ description: 'A playlist folder id' });
const folderParams = z.strictObject({ roomId, folderId });
const folderTitle = oneLineText().min(1).max(ROOM_LIMITS.titleMaxChars * 2).meta({ description: `1..${ROOM_LIMITS.titleMaxChars} characters` });
const FolderAnswer = z.strictObject({ folder: PlaylistFolder, seq }).meta({ id: 'PlaylistFolderAnswer' });

/** String bounds cap the work on hostile input; the actor's character rules are stricter. */
const mediaFields = {
  title: oneLineText().min(1).max(ROOM_LIMITS.titleMaxChars * 2).meta({ description: `1..${ROOM_LIMITS.titleMaxChars} characters` }),
  url: oneLineText()
    .min(1)
    .max(ROOM_LIMITS.urlMaxChars)
    .optional()
    .meta({ description: 'Absolute http or https URL; required except for provider live, whose url the service fills (live:<mediaId>)' }),
  provider: z
    .string()
    .regex(ROOM_LIMITS.providerPattern, { error: 'must be direct, hls, live or a provider name of lowercase letters, digits, "_" and "-"' })
    .optional()
    .meta({ description: 'direct (default), hls, live or a provider plugin name' }),
  headers: z
    .record(oneLineText().max(ROOM_LIMITS.headerNameMaxChars), oneLineText().max(ROOM_LIMITS.headerValueMaxChars))
    .optional()
    .meta({ description: `Upstream request headers, at most ${ROOM_LIMITS.headersMaxCount}` }),
  subtitles: subtitleInputs().optional().meta({ description: `At most ${ROOM_LIMITS.subtitlesMaxCount} tracks, at most one default` }),
  live: z.boolean().optional(),
  proxy: z.boolean().optional().meta({ description: 'Play through the media proxy (needs proxy.movieProxy / proxy.liveProxy)' }),
};
export const MediaInput = z.strictObject(mediaFields).meta({ id: 'MediaInput' });
export type MediaInput = z.infer<typeof MediaInput>;

const ItemAnswer = z.strictObject({ item: MediaItem, index: z.number().int(), seq }).meta({ id: 'PlaylistItemAnswer' });

export const BULK_MAX_ITEMS = 50;

export const getPlaylist = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/playlist',
  operationId: 'getPlaylist',
  summary: 'The playlist in order, and what is current (view_media_resources)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: {
    200: {
      description: 'The playlist',
      schema: z.strictObject({ items: z.array(MediaItem), currentMediaId: z.string().nullable(), seq }).meta({ id: 'Playlist' }),
    },
  },
  errors: [...ROOM_ERRORS],
});

export const addPlaylistItem = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist',
  operationId: 'addPlaylistItem',
  summary: 'Add one item at the end, or at index (create_media_resource)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    ...mediaFields,
    index: z.number().int().min(0).optional().meta({ description: 'Insert here (within the folder when folderId is given); absent: at the end' }),
    folderId: folderId.nullable().optional().meta({ description: 'Add into this playlist folder; absent or null: the top level' }),
  }),
  responses: {
    201: {
      description: 'Added',
      schema: ItemAnswer,
      links: {
        editPlaylistItem: { operationId: 'editPlaylistItem', parameters: { roomId: '$request.path.roomId', mediaId: '$response.body#/item/id' } },
        movePlaylistItem: { operationId: 'movePlaylistItem', parameters: { roomId: '$request.path.roomId', mediaId: '$response.body#/item/id' } },
        setCurrentMedia: { operationId: 'setCurrentMedia', parameters: { roomId: '$request.path.roomId' } },
        removePlaylistItem: { operationId: 'removePlaylistItem', parameters: { roomId: '$request.path.roomId', mediaId: '$response.body#/item/id' } },
      },
    },
  },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'conflict'],
});

export const addPlaylistItems = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/bulk',
  operationId: 'addPlaylistItems',
  summary: `Add up to ${BULK_MAX_ITEMS} items at the end, in order (create_media_resource)`,
  description:
    'Every item is validated first: if any is invalid nothing is added and the issues name items.<i>.<field>. The items are then added one command each, in order. If the first is refused, the answer is that error; if a later one is refused (the list is full, permissions changed meanwhile), the ones before it stay added and the answer (201) names it in `rejected`, and nothing after it is tried. With Idempotency-Key, retrying the same request re-answers the added items and tries the rest.',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    items: z.array(MediaInput).min(1).max(BULK_MAX_ITEMS),
    folderId: folderId.nullable().optional().meta({ description: 'Add every item into this playlist folder; absent or null: the top level' }),
  }),
  responses: {
    201: {
      description: 'The items added, in order; `rejected` when one was refused after validation',
      schema: z
        .strictObject({
          added: z.array(z.strictObject({ item: MediaItem, index: z.number().int() })),
          rejected: z
            .strictObject({ index: z.number().int().meta({ description: 'Position in the request' }), code: z.string(), message: z.string() })
            .optional(),
          seq,
        })
        .meta({ id: 'PlaylistBulkAnswer' }),
    },
  },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'conflict'],
});

export const editPlaylistItem = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}/playlist/{mediaId}',
  operationId: 'editPlaylistItem',
  summary: 'Change an item (own item with create_media_resource, else edit_media_resource)',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ ...mediaFields, title: mediaFields.title.optional() }),
  responses: { 200: { description: 'The item now', schema: z.strictObject({ item: MediaItem, seq }) } },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'conflict'],
});

export const removePlaylistItem = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/playlist/{mediaId}',
  operationId: 'removePlaylistItem',
  summary: 'Remove an item (own item with create_media_resource, else delete_media_resource); removing the current one stops playback',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Removed', schema: z.strictObject({ mediaId: z.string(), seq }) } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const movePlaylistItem = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/move',
  operationId: 'movePlaylistItem',
  summary: 'Move an item to another index, or into or out of a folder (reorder_media_resources)',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    toIndex: z.number().int().min(0).meta({ description: "Within the target: the folder's items, or the top-level entries (folders and items outside folders)" }),
    folderId: folderId
      .nullable()
      .optional()
      .meta({ description: 'The target: a playlist folder, null for the top level; absent: where the item is now' }),
  }),
  responses: {
    200: { description: 'Moved', schema: z.strictObject({ mediaId: z.string(), index: z.number().int(), folderId: z.string().nullable(), seq }) },
  },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const clearPlaylist = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/playlist',
  operationId: 'clearPlaylist',
  summary: 'Remove every item (delete_media_resource); playback stops',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Cleared', schema: z.strictObject({ removed: z.number().int(), seq }) } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const setCurrentMedia = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/playlist/current',
  operationId: 'setCurrentMedia',
  summary: 'Choose what plays for everyone, cued paused at 0 (set_current_media)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ mediaId, ...playbackGuards }),
  responses: { 200: { description: 'Playback now', schema: PlaybackAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const voteMedia = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/{mediaId}/vote',
  operationId: 'voteMedia',
  summary: 'Up-vote an item in the voting queue mode (vote); vote false takes it back',
  description: 'When the current item ends or is skipped, the most up-voted other item plays (ties: playlist order) and its votes are cleared. conflict in another queue mode. docs/2026-11-26-votes-and-polls.md',
  tags: TAGS,
  access: 'user_or_guest',
  params: itemParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ vote: z.boolean() }),
  responses: { 200: { description: "The item's up-votes now", schema: z.strictObject({ queueVotes: QueueVotes, seq }).meta({ id: 'QueueVotesAnswer' }) } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const addPlaylistFolder = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/folders',
  operationId: 'addPlaylistFolder',
  summary: `Add a playlist folder, at index among the top-level entries or last (create_media_resource; at most ${ROOM_LIMITS.playlistMaxFolders})`,
  description: 'docs/2026-11-26-playlist-folders.md. Items go into it with folderId on add, bulk add or move.',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ title: folderTitle, index: z.number().int().min(0).optional().meta({ description: 'Among the top-level entries; absent: last' }) }),
  responses: { 201: { description: 'Added', schema: FolderAnswer } },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'conflict'],
});

export const renamePlaylistFolder = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}/playlist/folders/{folderId}',
  operationId: 'renamePlaylistFolder',
  summary: 'Rename a playlist folder (edit_media_resource)',
  tags: TAGS,
  access: 'user_or_guest',
  params: folderParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ title: folderTitle }),
  responses: { 200: { description: 'The folder now', schema: FolderAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const movePlaylistFolder = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/folders/{folderId}/move',
  operationId: 'movePlaylistFolder',
  summary: 'Move a playlist folder, with its items, among the top-level entries (reorder_media_resources)',
  tags: TAGS,
  access: 'user_or_guest',
  params: folderParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ toIndex: z.number().int().min(0) }),
  responses: { 200: { description: 'Moved', schema: z.strictObject({ folderId: z.string(), index: z.number().int(), seq }) } },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const removePlaylistFolder = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/playlist/folders/{folderId}',
  operationId: 'removePlaylistFolder',
  summary: 'Remove a playlist folder (delete_media_resource): its items go with it, or stay at the top level where they were',
  tags: TAGS,
  access: 'user_or_guest',
  params: folderParams,
  query: z.strictObject({
    withItems: z.enum(['true', 'false']).meta({ description: 'true: remove its items too (removing the current one stops playback); false: keep them' }),
  }),
  headers: idempotencyHeaders,
  responses: {
    200: { description: 'Removed', schema: z.strictObject({ folderId: z.string(), removedItems: z.number().int(), seq }) },
  },
  errors: [...ROOM_ERRORS, 'conflict'],
});

export const playPlaylistFolder = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/playlist/folders/{folderId}/play',
  operationId: 'playPlaylistFolder',
  summary: "Play a folder: its first (or a random) item becomes current, and the queue goes on within the folder to its end, then by the room's queue mode (set_current_media)",
  description: 'Cued like choosing an item (paused at its start when the room is paused; started shortly for everyone when it plays). docs/2026-11-26-playlist-folders.md',
  tags: TAGS,
  access: 'user_or_guest',
  params: folderParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ order: z.enum(['in_order', 'shuffle']) }),
  responses: { 200: { description: 'Playback now', schema: PlaybackAnswer } },
  errors: [...ROOM_ERRORS, 'conflict'],
});
