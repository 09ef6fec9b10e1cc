/** ChatService: actor commands chat.*. */
import type { GrpcCalls } from '../call.js';
import type { ChatServiceHandlers } from '../gen/svc/v1/ChatService.js';
import type { RoomCalls } from '../room-calls.js';
import { chatMessage } from '../views.js';

export function chatService(calls: GrpcCalls, rooms: RoomCalls): ChatServiceHandlers {
  return {
    Send: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'chat.send', text: request.text, clientMessageId: request.clientMessageId });
      return { message: chatMessage(result.message), duplicate: result.duplicate };
    }),
    History: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'chat.history', before: request.before, limit: request.limit });
      return { messages: result.messages.map(chatMessage), ...(result.nextBefore !== null ? { nextBefore: result.nextBefore } : {}) };
    }),
    Delete: calls.unary(async (request, ctx) => rooms.send(ctx, request.roomId, { kind: 'chat.delete', messageId: request.messageId })),
    Pin: calls.unary(async (request, ctx) => ({ message: chatMessage((await rooms.send(ctx, request.roomId, { kind: 'chat.pin', messageId: request.messageId })).message) })),
    Unpin: calls.unary(async (request, ctx) => ({ message: chatMessage((await rooms.send(ctx, request.roomId, { kind: 'chat.unpin', messageId: request.messageId })).message) })),
    ListPins: calls.unary(async (request, ctx) => {
      const result = await rooms.send(ctx, request.roomId, { kind: 'chat.pins', before: request.before, limit: request.limit });
      return { messages: result.messages.map(chatMessage), ...(result.nextBefore !== null ? { nextBefore: result.nextBefore } : {}) };
    }),
  };
}
