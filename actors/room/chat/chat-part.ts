/**
 * The chat part: messages (sent through the host's group-committed chat writer, read from
 * PostgreSQL, never held in memory), replies, edits, pins and mentions; reactions on messages
 * and over the video. Retention is a job outside the actor (chat-retention.ts).
 */
import { roomPart } from '../part.js';
import { chatHistory, deleteMessage, editMessage, pinMessage, pinnedMessages, sendMessage, unpinMessage } from './chat-handlers.js';
import { CHAT_WRITER } from './chat-writer.js';
import { react, sendReaction, unreact } from './reaction-handlers.js';

export const chatPart = roomPart({
  name: 'chat',
  shared: [CHAT_WRITER],
  handlers: {
    'chat.send': sendMessage,
    'chat.history': chatHistory,
    'chat.delete': deleteMessage,
    'chat.pin': pinMessage,
    'chat.unpin': unpinMessage,
    'chat.pins': pinnedMessages,
    'chat.edit': editMessage,
    'chat.react': react,
    'chat.unreact': unreact,
    'reaction.send': sendReaction,
  },
});
