/**
 * Rooms (`/api/rooms`): create, the public directory, read, settings, delete, join, leave,
 * ownership, and the caller's own rooms. Every operation on one room is a room-actor command;
 * only the listings read PostgreSQL (docs/2026-11-23-rooms-api.md). A leaf module.
 */
import { z } from 'zod';
import { labelText, oneLineText, privateText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { slowModeSeconds, wordFilterInput } from '../room/moderation.js';
import { defineEndpoint } from './endpoint.js';
import { MemberView, QueueMode, RoomInfo, RoomView, RoomVisibility } from '../room/model.js';
import { idempotencyHeaders, overrideLists, RoomPage, RoomSummary, roomId, seq, userId } from './room.js';

const TAGS = ['rooms'];
const roomParams = z.strictObject({ roomId });

const name = labelText({ maxChars: ROOM_LIMITS.nameMaxChars, totalChars: ROOM_LIMITS.nameMaxChars * 2 }).meta({ description: `1..${ROOM_LIMITS.nameMaxChars} characters after trimming, something visible among them` });
const password = privateText().max(ROOM_LIMITS.passwordMaxChars);
const voteSkipPercent = z.number().int().min(0).max(ROOM_LIMITS.voteSkipPercentMax);
const readyTimeoutMs = z.number().int().min(ROOM_LIMITS.readyTimeoutMinMs).max(ROOM_LIMITS.readyTimeoutMaxMs);
const overridesInput = z.strictObject({
  admin: overrideLists.admin.nullable().optional(),
  member: overrideLists.member.nullable().optional(),
  guest: overrideLists.guest.nullable().optional(),
});

/**
 * A room listing's cursor: `<microseconds since the epoch>.<room id>`, the created_at and id of
 * the last room of a page. Every string of this form is a position (the rooms before it in the
 * listing's order), so the pattern is the whole rule and no cursor it admits is refused.
 */
export const ROOM_CURSOR = /^([0-9]{1,16})\.([A-Za-z0-9_-]{1,128})$/;

export const PageQuery = {
  cursor: z
    .string()
    .regex(ROOM_CURSOR, { error: 'is not a cursor this listing returned' })
    .optional()
    .meta({ description: 'nextCursor of the previous page (<microseconds>.<room id>: the rooms before that position)' }),
  limit: z.coerce.number().int().min(1).max(100).optional().meta({ description: 'Page size, default 20' }),
};

/**
 * Room settings carry a word filter of up to 200 entries of 100 UTF-16 units: 120 KB when every
 * unit is escaped (6 bytes). The body limit leaves room for it and the rest, so a body the
 * document admits is never answered 413.
 */
const ROOM_SETTINGS_BODY_LIMIT = '192kb';

const RoomAnswer = z.strictObject({ room: RoomInfo, seq }).meta({ id: 'RoomAnswer' });

export const createRoom = defineEndpoint({
  method: 'post',
  path: '/api/rooms',
  operationId: 'createRoom',
  summary: 'Create a room; the caller owns it and is its first admin',
  description:
    'Needs server.allowRoomCreation on and room.disableCreateRoom off; counts against server.maxRoomsPerUser. With room.createRoomNeedReview the room is pending_review and only its owner sees it. room.passwordPolicy decides whether a password is required or forbidden.',
  tags: TAGS,
  bodyLimit: ROOM_SETTINGS_BODY_LIMIT,
  access: 'user',
  headers: idempotencyHeaders,
  body: z.strictObject({
    name,
    password: password.optional().meta({ description: 'Empty or absent: no password' }),
    visibility: RoomVisibility.optional().meta({ description: 'Default public' }),
    requireJoinApproval: z.boolean().optional(),
    waitForAllReady: z.boolean().optional(),
    readyTimeoutMs: readyTimeoutMs.optional(),
    queueMode: QueueMode.optional().meta({ description: 'Default next' }),
    voteSkipPercent: voteSkipPercent.optional().meta({ description: 'Vote-skip threshold in percent of present voters; default 0 (off)' }),
    danmaku: z.boolean().optional().meta({ description: 'Default false' }),
    slowModeSeconds: slowModeSeconds.optional().meta({ description: 'Seconds between two chat messages of a member (0..600); default 0 (off)' }),
    wordFilter: wordFilterInput.optional().meta({ description: 'Words and phrases masked or refused in chat and danmaku; default none' }),
    permissionOverrides: z
      .strictObject({ admin: overrideLists.admin.optional(), member: overrideLists.member.optional(), guest: overrideLists.guest.optional() })
      .optional(),
  }),
  bodyExamples: { movieNight: { name: 'Movie night', visibility: 'public' }, hidden: { name: 'Film club', visibility: 'hidden', password: 'popcorn', requireJoinApproval: true } },
  responses: {
    201: {
      description: 'Created',
      schema: RoomAnswer,
      links: {
        getRoom: { operationId: 'getRoom', parameters: { roomId: '$response.body#/room/id' } },
        updateRoom: { operationId: 'updateRoom', parameters: { roomId: '$response.body#/room/id' } },
        joinRoom: { operationId: 'joinRoom', parameters: { roomId: '$response.body#/room/id' } },
        addPlaylistItem: { operationId: 'addPlaylistItem', parameters: { roomId: '$response.body#/room/id' } },
        sendChat: { operationId: 'sendChat', parameters: { roomId: '$response.body#/room/id' } },
        deleteRoom: { operationId: 'deleteRoom', parameters: { roomId: '$response.body#/room/id' } },
      },
    },
  },
  errors: ['unauthenticated', 'forbidden', 'limit_exceeded', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const listRooms = defineEndpoint({
  method: 'get',
  path: '/api/rooms',
  operationId: 'listRooms',
  summary: 'The public room directory: active public rooms, newest first, optionally searched by name',
  tags: TAGS,
  access: 'user_or_guest',
  query: z.strictObject({
    query: oneLineText()
      .max(100)
      .optional()
      .meta({ description: 'Words (letters and digits) each matching the start of a word of the name, case-insensitive' }),
    ...PageQuery,
  }),
  responses: { 200: { description: 'One page', schema: RoomPage } },
  errors: ['unauthenticated'],
});

export const listMyRooms = defineEndpoint({
  method: 'get',
  path: '/api/me/rooms',
  operationId: 'listMyRooms',
  summary: 'Rooms the caller owns (whatever their status) or is an active member of, newest first',
  tags: TAGS,
  access: 'user_or_guest',
  query: z.strictObject(PageQuery),
  responses: {
    200: {
      description: 'One page',
      schema: z
        .strictObject({
          rooms: z.array(
            z.strictObject({
              room: RoomSummary,
              role: z.enum(['admin', 'member', 'guest']).nullable().meta({ description: 'The caller\'s role; null for an owner without a member row' }),
              isOwner: z.boolean(),
            }),
          ),
          nextCursor: z.string().optional(),
        })
        .meta({ id: 'MyRoomPage' }),
    },
  },
  errors: ['unauthenticated'],
});

export const getRoom = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}',
  operationId: 'getRoom',
  summary: 'A room as the caller may see it: members get the whole room, everyone else a preview',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  responses: { 200: { description: 'The room', schema: RoomView } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const updateRoom = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}',
  operationId: 'updateRoom',
  summary: 'Change room settings (edit_room_settings)',
  tags: TAGS,
  bodyLimit: ROOM_SETTINGS_BODY_LIMIT,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    name: name.optional(),
    password: password.nullable().optional().meta({ description: 'A string sets it; null or "" removes it' }),
    visibility: RoomVisibility.optional(),
    requireJoinApproval: z.boolean().optional(),
    waitForAllReady: z.boolean().optional(),
    readyTimeoutMs: readyTimeoutMs.optional(),
    queueMode: QueueMode.optional(),
    voteSkipPercent: voteSkipPercent.optional().meta({ description: '0..100; 0 turns vote-skip off' }),
    danmaku: z.boolean().optional(),
    slowModeSeconds: slowModeSeconds.optional().meta({ description: '0..600; 0 turns slow mode off' }),
    wordFilter: wordFilterInput.optional().meta({ description: 'Replaces the word filter; no words turns it off. docs/2026-11-26-chat-moderation.md' }),
    permissionOverrides: overridesInput.optional().meta({ description: 'Per role: a list replaces the default, null returns to it' }),
  }),
  responses: { 200: { description: 'The room now', schema: RoomAnswer } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const deleteRoom = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}',
  operationId: 'deleteRoom',
  summary: 'Delete a room with its members, playlist and chat (owner only)',
  tags: TAGS,
  access: 'user',
  params: roomParams,
  headers: idempotencyHeaders,
  responses: { 204: { description: 'Deleted' } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const joinRoom = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/join',
  operationId: 'joinRoom',
  summary: 'Join a room (with its password, if it has one); with join approval the caller waits as pending',
  description:
    'Wrong passwords are limited per room and caller (10 per 15 min) and per room and client address (30 per 15 min): ' +
    'past that every join with a password, the right one too, is rate_limited (429 with Retry-After) for 15 minutes.',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ password: password.optional() }).optional(),
  responses: {
    200: {
      description: 'Joined, or waiting for approval',
      schema: z.strictObject({ status: z.enum(['active', 'pending']), member: MemberView, seq }).meta({ id: 'JoinAnswer' }),
    },
  },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'limit_exceeded', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const leaveRoom = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/leave',
  operationId: 'leaveRoom',
  summary: 'Leave a room, or withdraw a join request (the owner cannot leave: transfer or delete)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'left is false when the caller was not a member', schema: z.strictObject({ left: z.boolean(), seq }) } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const transferRoom = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/owner',
  operationId: 'transferRoom',
  summary: 'Hand the room to an active, non-guest member (owner only); the old owner stays as an admin',
  tags: TAGS,
  access: 'user',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ userId }),
  responses: { 200: { description: 'The room with its new owner', schema: RoomAnswer } },
  errors: ['unauthenticated', 'forbidden', 'not_found', 'limit_exceeded', 'conflict', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'],
});

export const listFavouriteRooms = defineEndpoint({
  method: 'get',
  path: '/api/me/favourites',
  operationId: 'listFavouriteRooms',
  summary: 'Your favourite rooms that you may still see, most recently starred first',
  description: 'Active rooms that are public, or that you own or are an active member of; never one that banned you. At most 100.',
  tags: TAGS,
  access: 'user',
  responses: { 200: { description: 'The rooms', schema: z.strictObject({ rooms: z.array(RoomSummary) }).meta({ id: 'FavouriteRooms' }) } },
  errors: ['unauthenticated'],
});

export const addFavouriteRoom = defineEndpoint({
  method: 'put',
  path: '/api/me/favourites/{roomId}',
  operationId: 'addFavouriteRoom',
  summary: 'Star a room you may see (public, or yours, or one you are a member of)',
  description: 'A room you may not see is not_found. Starring twice is one star; at most 100 (limit_exceeded).',
  tags: TAGS,
  access: 'user',
  params: roomParams,
  responses: { 204: { description: 'Starred' } },
  errors: ['unauthenticated', 'not_found', 'limit_exceeded'],
});

export const removeFavouriteRoom = defineEndpoint({
  method: 'delete',
  path: '/api/me/favourites/{roomId}',
  operationId: 'removeFavouriteRoom',
  summary: 'Unstar a room',
  tags: TAGS,
  access: 'user',
  params: roomParams,
  responses: { 204: { description: 'Not a favourite now' } },
  errors: ['unauthenticated'],
});
