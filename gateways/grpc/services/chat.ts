/** ChatService: actor commands chat.*, one row each. */
import type { ChatServiceHandlers } from '../gen/svc/v1/ChatService.js';
import type { RoomCalls } from '../room-calls.js';
import { chatMessage } from '../views.js';
import type { ChatMessage } from '../../../contracts/room/model.js';

const page = (result: { messages: ChatMessage[]; nextBefore: string | null }) => ({
  messages: result.messages.map(chatMessage),
  ...(result.nextBefore !== null ? { nextBefore: result.nextBefore } : {}),
});
const pinned = (result: { message: ChatMessage }) => ({ message: chatMessage(result.message) });

export function chatService(rooms: RoomCalls): ChatServiceHandlers {
  return {
    Send: rooms.command(
      'chat.send',
      (request) => ({ text: request.text, clientMessageId: request.clientMessageId }),
      (result) => ({ message: chatMessage(result.message), duplicate: result.duplicate }),
    ),
    History: rooms.command('chat.history', (request) => ({ before: request.before, limit: request.limit }), page),
    Delete: rooms.command('chat.delete', (request) => ({ messageId: request.messageId }), (result) => result),
    Pin: rooms.command('chat.pin', (request) => ({ messageId: request.messageId }), pinned),
    Unpin: rooms.command('chat.unpin', (request) => ({ messageId: request.messageId }), pinned),
    ListPins: rooms.command('chat.pins', (request) => ({ before: request.before, limit: request.limit }), page),
  };
}
