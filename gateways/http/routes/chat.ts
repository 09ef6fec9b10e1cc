/** The chat endpoints of contracts/http/chat.ts: one room command each. */
import * as api from '../../../contracts/http/chat.js';
import { roomCommand, type RoomRoute } from '../room-command-route.js';

const page = (result: { messages: unknown[]; nextBefore: string | null }, seq: number) => ({
  messages: result.messages,
  ...(result.nextBefore ? { nextCursor: result.nextBefore } : {}),
  seq,
});

export const CHAT_ROUTES: readonly RoomRoute[] = [
  roomCommand(api.sendChat, 'chat.send', { command: ({ body }) => body, answer: (result, seq) => ({ ...result, seq }), status: 201 }),
  roomCommand(api.chatHistory, 'chat.history', {
    command: ({ query }) => ({ ...(query.cursor ? { before: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) }),
    answer: page,
  }),
  roomCommand(api.editChat, 'chat.edit', {
    command: ({ params, body }) => ({ messageId: params.messageId, text: body.text }),
    answer: (result, seq) => ({ message: result.message, seq }),
  }),
  roomCommand(api.deleteChat, 'chat.delete', { command: ({ params }) => ({ messageId: params.messageId }), answer: (result, seq) => ({ messageId: result.messageId, seq }) }),
  roomCommand(api.listPins, 'chat.pins', {
    command: ({ query }) => ({ ...(query.cursor ? { before: query.cursor } : {}), ...(query.limit ? { limit: query.limit } : {}) }),
    answer: page,
  }),
  roomCommand(api.pinChat, 'chat.pin', { command: ({ params }) => ({ messageId: params.messageId }), answer: (result, seq) => ({ message: result.message, seq }) }),
  roomCommand(api.unpinChat, 'chat.unpin', { command: ({ params }) => ({ messageId: params.messageId }), answer: (result, seq) => ({ message: result.message, seq }) }),
  roomCommand(api.reactChat, 'chat.react', {
    command: ({ params }) => ({ messageId: params.messageId, reaction: params.reaction }),
    answer: (result, seq) => ({ ...result, seq }),
  }),
  roomCommand(api.unreactChat, 'chat.unreact', {
    command: ({ params }) => ({ messageId: params.messageId, reaction: params.reaction }),
    answer: (result, seq) => ({ ...result, seq }),
  }),
  roomCommand(api.sendReaction, 'reaction.send', { command: ({ body }) => body, answer: (result, seq) => ({ ...result, seq }) }),
];
