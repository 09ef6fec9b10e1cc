/**
 * Danmaku (`/api/rooms/{roomId}/danmaku`): comments pinned to a media time, scrolled over the
 * video. Room commands danmaku.send and danmaku.list. A leaf module.
 */
import { z } from 'zod';
import { trimmedText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { defineEndpoint } from './endpoint.js';
import { DanmakuComment } from '../room/model.js';
import { idempotencyHeaders, mediaId, position, roomId, seq } from './room.js';

const TAGS = ['chat'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;

export const sendDanmaku = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/danmaku',
  operationId: 'sendDanmaku',
  summary: `A comment at the sender's media time (send_chat; the room option danmaku). mediaId must be the current item and position within ${ROOM_LIMITS.danmakuPositionToleranceSeconds} s of the room's`,
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId }),
  headers: idempotencyHeaders,
  body: z.strictObject({
    mediaId,
    position,
    text: trimmedText({ lines: false, maxChars: ROOM_LIMITS.danmakuMaxChars, totalChars: ROOM_LIMITS.danmakuMaxChars * 4 }).meta({
      description: `1..${ROOM_LIMITS.danmakuMaxChars} characters after trimming, one line; at most ${ROOM_LIMITS.danmakuMaxChars * 4} with the white space around them`,
    }),
  }),
  responses: { 201: { description: 'Stored and shown to the members present', schema: z.strictObject({ comment: DanmakuComment, seq }) } },
  errors: [...ERRORS],
});

export const listDanmaku = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/danmaku/{mediaId}',
  operationId: 'listDanmaku',
  summary: `The comments of one item, by position (view_chat_history); the newest ${ROOM_LIMITS.danmakuPerItemMax} are kept`,
  tags: TAGS,
  access: 'user_or_guest',
  params: z.strictObject({ roomId, mediaId }),
  responses: { 200: { description: 'By position, earliest first', schema: z.strictObject({ comments: z.array(DanmakuComment), seq }).meta({ id: 'DanmakuList' }) } },
  errors: [...ERRORS],
});
