/** ChatService: actor commands chat.*, one row each. */
import type { Handlers } from '../service-table.js';
import type { ChatServiceHandlers } from '../gen/svc/v1/ChatService.js';
import { enumIn, type RoomCalls } from '../room-calls.js';
import { REACTIONS, type ReactionName } from '../../../contracts/room/reactions.js';
import { chatMessage, chatReaction, danmakuComment } from '../views.js';
import type { ChatMessage, ChatReaction } from '../../../contracts/room/model.js';

const page = (result: { messages: ChatMessage[]; nextBefore: string | null }) => ({
  messages: result.messages.map(chatMessage),
  ...(result.nextBefore !== null ? { nextBefore: result.nextBefore } : {}),
});
const pinned = (result: { message: ChatMessage }) => ({ message: chatMessage(result.message) });

/** Names stand for themselves over gRPC (strings, so the set can grow without a proto change). */
const REACTION_NAMES = Object.fromEntries(REACTIONS.map((name) => [name, name])) as Record<ReactionName, string>;

const reactionOf = (value: string): ReactionName => enumIn(REACTION_NAMES, value, 'reaction');

const reactionsAnswer = (result: { messageId: string; reactions: ChatReaction[] }) => ({
  messageId: result.messageId,
  reactions: result.reactions.map(chatReaction),
});

export function chatService(rooms: RoomCalls): Handlers<ChatServiceHandlers> {
  return {
    Send: rooms.command(
      'chat.send',
      (request) => ({ text: request.text, clientMessageId: request.clientMessageId, replyTo: request.replyTo }),
      (result) => ({ message: chatMessage(result.message), duplicate: result.duplicate }),
    ),
    History: rooms.command('chat.history', (request) => ({ before: request.before, limit: request.limit }), page),
    Delete: rooms.command('chat.delete', (request) => ({ messageId: request.messageId }), (result) => result),
    Edit: rooms.command('chat.edit', (request) => ({ messageId: request.messageId, text: request.text }), pinned),
    Pin: rooms.command('chat.pin', (request) => ({ messageId: request.messageId }), pinned),
    Unpin: rooms.command('chat.unpin', (request) => ({ messageId: request.messageId }), pinned),
    ListPins: rooms.command('chat.pins', (request) => ({ before: request.before, limit: request.limit }), page),
    React: rooms.command('chat.react', (request) => ({ messageId: request.messageId, reaction: reactionOf(request.reaction) }), reactionsAnswer),
    Unreact: rooms.command('chat.unreact', (request) => ({ messageId: request.messageId, reaction: reactionOf(request.reaction) }), reactionsAnswer),
    SendDanmaku: rooms.command(
      'danmaku.send',
      (request) => ({ mediaId: request.mediaId, position: request.position, text: request.text }),
      (result) => ({ comment: danmakuComment(result.comment) }),
    ),
    ListDanmaku: rooms.command('danmaku.list', (request) => ({ mediaId: request.mediaId }), (result) => ({ comments: result.comments.map(danmakuComment) })),
    SendReaction: rooms.command('reaction.send', (request) => ({ reaction: reactionOf(request.reaction) }), (result) => result),
  };
}
