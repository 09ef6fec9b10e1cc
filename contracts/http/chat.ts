/**
 * Room chat (`/api/rooms/{roomId}/chat`): send, history pages, delete, pins. Each is a
 * room-actor command; history is read from PostgreSQL by the actor. A leaf module.
 */
import { z } from 'zod';
import { oneLineText, trimmedText } from '../text.js';
import { ROOM_LIMITS } from '../room/limits.js';
import { defineEndpoint } from './endpoint.js';
import { ChatMessage, ChatReaction } from '../room/model.js';
import { Reaction } from '../room/reactions.js';
import { idempotencyHeaders, messageId, roomId, seq } from './room.js';

const TAGS = ['chat'];
const ERRORS = ['unauthenticated', 'forbidden', 'not_found', 'unavailable', 'busy', 'rate_limited', 'deadline_exceeded'] as const;
const roomParams = z.strictObject({ roomId });
const messageParams = z.strictObject({ roomId, messageId });
const MessageAnswer = z.strictObject({ message: ChatMessage, seq }).meta({ id: 'ChatMessageAnswer' });
/**
 * With the white space around it, a text is at most this many characters: room for padding, and
 * the largest body (every character escaped as a surrogate pair, 12 bytes) stays under the
 * router's 64 KiB limit, so a text the document admits is never answered 413.
 */
const CHAT_TOTAL_CHARS = 4096;
const chatText = trimmedText({ lines: true, maxChars: ROOM_LIMITS.chatMaxChars, totalChars: CHAT_TOTAL_CHARS }).meta({
  description: `1..${ROOM_LIMITS.chatMaxChars} characters after trimming (a CR LF counts as one: it is stored as LF); at most ${CHAT_TOTAL_CHARS} with the white space around them`,
});

export const sendChat = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/chat',
  operationId: 'sendChat',
  summary: 'Post a message (send_chat)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    text: chatText,
    clientMessageId: oneLineText()
      .min(1)
      .max(ROOM_LIMITS.clientMessageIdMaxChars)
      .optional()
      .meta({ description: 'Makes resends of one message idempotent (per sender), through any gateway' }),
    replyTo: messageId.optional().meta({ description: 'The message this one answers: in this room, not deleted (not_found naming replyTo otherwise)' }),
  }),
  bodyExamples: { hello: { text: 'Hello, everyone!' }, lines: { text: 'Two lines:\nthe second one', clientMessageId: 'c-1' } },
  responses: {
    201: {
      description: 'Posted; duplicate when this was a resend of a stored message',
      schema: z.strictObject({ message: ChatMessage, duplicate: z.boolean(), seq }),
      links: {
        pinChat: { operationId: 'pinChat', parameters: { roomId: '$request.path.roomId', messageId: '$response.body#/message/id' } },
        deleteChat: { operationId: 'deleteChat', parameters: { roomId: '$request.path.roomId', messageId: '$response.body#/message/id' } },
      },
    },
  },
  errors: [...ERRORS],
});

export const chatHistory = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/chat',
  operationId: 'chatHistory',
  summary: 'Earlier messages, newest first, a page at a time (view_chat_history)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  query: z.strictObject({
    cursor: messageId.optional().meta({ description: 'nextCursor of the previous page: messages older than it' }),
    limit: z.coerce.number().int().min(1).max(ROOM_LIMITS.chatHistoryMaxLimit).optional().meta({ description: `Default ${ROOM_LIMITS.chatHistoryDefaultLimit}` }),
  }),
  responses: {
    200: {
      description: 'One page; nextCursor is absent on the last',
      schema: z.strictObject({ messages: z.array(ChatMessage), nextCursor: z.string().optional(), seq }).meta({ id: 'ChatPage' }),
    },
  },
  errors: [...ERRORS],
});

export const deleteChat = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/chat/{messageId}',
  operationId: 'deleteChat',
  summary: `Delete a message for everyone (own message within ${ROOM_LIMITS.chatEditWindowMs / 60_000} minutes of sending, or any with delete_chat)`,
  tags: TAGS,
  access: 'user_or_guest',
  params: messageParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Deleted', schema: z.strictObject({ messageId: z.string(), seq }) } },
  errors: [...ERRORS, 'conflict'],
});

export const listPins = defineEndpoint({
  method: 'get',
  path: '/api/rooms/{roomId}/chat/pins',
  operationId: 'listPins',
  summary: 'Pinned messages, newest first, a page at a time (view_chat_history)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  query: z.strictObject({
    cursor: messageId.optional().meta({ description: 'nextCursor of the previous page: pins older than it' }),
    limit: z.coerce.number().int().min(1).max(ROOM_LIMITS.chatHistoryMaxLimit).optional().meta({ description: `Default ${ROOM_LIMITS.chatHistoryDefaultLimit}` }),
  }),
  responses: {
    200: {
      description: 'One page; nextCursor is absent on the last',
      schema: z.strictObject({ messages: z.array(ChatMessage), nextCursor: z.string().optional(), seq }),
    },
  },
  errors: [...ERRORS],
});

export const pinChat = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/chat/{messageId}/pin',
  operationId: 'pinChat',
  summary: 'Pin a message (pin_chat); beyond chat.maxPinnedMessagesPerRoom is limit_exceeded',
  tags: TAGS,
  access: 'user_or_guest',
  params: messageParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Pinned', schema: MessageAnswer } },
  errors: [...ERRORS, 'limit_exceeded'],
});

export const unpinChat = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/chat/{messageId}/pin',
  operationId: 'unpinChat',
  summary: 'Unpin a message (pin_chat)',
  tags: TAGS,
  access: 'user_or_guest',
  params: messageParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: 'Unpinned', schema: MessageAnswer } },
  errors: [...ERRORS],
});

const reactionParams = z.strictObject({ roomId, messageId, reaction: Reaction });
const ReactionsAnswer = z.strictObject({ messageId: z.string(), reactions: z.array(ChatReaction), seq }).meta({ id: 'ChatReactionsAnswer' });

export const reactChat = defineEndpoint({
  method: 'put',
  path: '/api/rooms/{roomId}/chat/{messageId}/reactions/{reaction}',
  operationId: 'reactChat',
  summary: 'React to a message (send_chat); reacting twice is reacting once',
  tags: TAGS,
  access: 'user_or_guest',
  params: reactionParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: "The message's reactions now", schema: ReactionsAnswer } },
  errors: [...ERRORS],
});

export const unreactChat = defineEndpoint({
  method: 'delete',
  path: '/api/rooms/{roomId}/chat/{messageId}/reactions/{reaction}',
  operationId: 'unreactChat',
  summary: 'Take back a reaction to a message (send_chat)',
  tags: TAGS,
  access: 'user_or_guest',
  params: reactionParams,
  headers: idempotencyHeaders,
  responses: { 200: { description: "The message's reactions now", schema: ReactionsAnswer } },
  errors: [...ERRORS],
});

export const sendReaction = defineEndpoint({
  method: 'post',
  path: '/api/rooms/{roomId}/reactions',
  operationId: 'sendReaction',
  summary: 'A reaction over the video, shown to the members present for a moment; not stored (send_chat, counted as chat)',
  tags: TAGS,
  access: 'user_or_guest',
  params: roomParams,
  headers: idempotencyHeaders,
  body: z.strictObject({ reaction: Reaction }),
  responses: { 200: { description: 'Published', schema: z.strictObject({ sent: z.literal(true), seq }) } },
  errors: [...ERRORS],
});

export const editChat = defineEndpoint({
  method: 'patch',
  path: '/api/rooms/{roomId}/chat/{messageId}',
  operationId: 'editChat',
  summary: `Edit one's own message, within ${ROOM_LIMITS.chatEditWindowMs / 60_000} minutes of sending (send_chat); mentions are resolved again`,
  tags: TAGS,
  access: 'user_or_guest',
  params: messageParams,
  headers: idempotencyHeaders,
  body: z.strictObject({
    text: chatText,
  }),
  responses: { 200: { description: 'Edited: the message now', schema: MessageAnswer } },
  errors: [...ERRORS, 'conflict'],
});
