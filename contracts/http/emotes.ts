/**
 * Custom room emotes (docs/2026-11-26-room-emotes.md): the room's list for its members, and
 * upload and removal by those who may change the room's settings. A leaf module.
 */
import { z } from 'zod';
import { EMOTE_LIMITS, EMOTE_NAME } from '../room/emotes.js';
import { defineEndpoint } from './endpoint.js';
import { roomId } from './room.js';

const TAGS = ['emotes'];
const ROOM_ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;

/** Base64 of the largest picture: every 3 bytes are 4 characters. */
const CONTENT_MAX_CHARS = Math.ceil(EMOTE_LIMITS.maxBytes / 3) * 4;
export const EMOTE_UPLOAD_BODY_LIMIT = `${Math.ceil((CONTENT_MAX_CHARS + 1024) / 1024)}kb`;

const emoteName = z.string().regex(EMOTE_NAME).meta({ description: '2 to 32 lower-case letters, digits or underscores; written :name: in chat' });

export const Emote = z
  .strictObject({
    name: z.string(),
    url: z.string().meta({ description: 'The picture (WebP), cached forever: a new upload under the name gets a new URL' }),
    width: z.number().int(),
    height: z.number().int(),
    animated: z.boolean(),
  })
  .meta({ id: 'Emote' });

export const listEmotes = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/emotes',
  operationId: 'listEmotes',
  summary: "The room's emotes, by name (active members)",
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId }),
  responses: { 200: { description: 'The emotes', schema: z.strictObject({ emotes: z.array(Emote) }) } },
  errors: [...ROOM_ERRORS],
});

export const putEmote = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/emotes/{name}',
  operationId: 'putEmote',
  summary: 'Upload an emote, or replace the one of that name (edit_room_settings)',
  description: `PNG, GIF or WebP, at most ${EMOTE_LIMITS.maxBytes} bytes and ${EMOTE_LIMITS.maxInputSide}x${EMOTE_LIMITS.maxInputSide} pixels per frame (an animation: at most ${EMOTE_LIMITS.maxFrames} frames and ${EMOTE_LIMITS.maxTotalPixels} pixels in all frames together); fitted within ${EMOTE_LIMITS.servedSide}x${EMOTE_LIMITS.servedSide} and re-encoded as WebP, animation kept. At most ${EMOTE_LIMITS.perRoom} per room.`,
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId, name: emoteName }),
  bodyLimit: EMOTE_UPLOAD_BODY_LIMIT,
  body: z.strictObject({
    content: z.base64().min(1).max(CONTENT_MAX_CHARS).meta({ description: `The picture, base64; at most ${EMOTE_LIMITS.maxBytes} bytes once decoded` }),
  }),
  responses: { 200: { description: 'Stored', schema: z.strictObject({ emote: Emote }) } },
  errors: [...ROOM_ERRORS, 'limit_exceeded', 'payload_too_large', 'resource_exhausted'],
});

export const deleteEmote = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/emotes/{name}',
  operationId: 'deleteEmote',
  summary: 'Remove an emote (edit_room_settings); messages that name it show the text again',
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId, name: emoteName }),
  responses: { 200: { description: 'Removed', schema: z.strictObject({ removed: z.literal(true) }) } },
  errors: [...ROOM_ERRORS],
});
