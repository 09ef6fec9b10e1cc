/**
 * Chat. A message is committed (fenced) before the send is acknowledged, under an
 * idempotency key, so a retried send is stored once. Deletion is hard: a deleted message is
 * gone from history for everyone, which is what a user asking to delete expects. Authors edit
 * and delete their own messages within ROOM_LIMITS.chatEditWindowMs; replies and mentions are
 * docs/2026-11-26-chat-replies-edits-mentions.md.
 */
import { AppError } from '../../../errors/index.js';
import { classifyDatabaseError } from '../../../postgres/index.js';
import * as chat from './chat-store.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomCore, Turn } from '../core.js';
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import type { ChatMessage } from '../../../contracts/room/model.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import { checkChatText, displayName } from '../validate.js';
import { followDisplayName } from '../member-name.js';
import { applyWordFilter, moderateChat } from '../moderation/moderate-chat.js';
import { mentionsIn, notifyMentioned } from './chat-mentions.js';
import { CHAT_WRITER } from './chat-writer.js';

/**
 * The key that makes a send idempotent. A client-chosen id wins: it survives the client
 * reconnecting and resending through another gateway, which gets a new runtime command id.
 * Otherwise the runtime's command id covers the client API's retries, across a failover too.
 */
function idempotencyKey(command: RoomCommandOf<'chat.send'>, turn: Turn): string {
  if (command.clientMessageId !== undefined) return `client:${turn.access.userId}:${command.clientMessageId}`;
  return `cmd:${turn.meta.commandId}`;
}

/** Reads outside a fenced transaction; a database outage becomes `unavailable`. */
async function read<T>(core: RoomCore, what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw classifyDatabaseError(err, `room ${core.id}: could not ${what}`, { detail: false });
  }
}

export async function sendMessage(core: RoomCore, command: RoomCommandOf<'chat.send'>, turn: Turn): Promise<RoomResults['chat.send']> {
  const { access } = turn;
  core.require(access, 'send_chat', 'sending chat messages');
  const replyTo = command.replyTo ?? null;
  // Checked before the write, not in it: an original deleted in between leaves a reply to
  // "a deleted message", which is what it would show a moment later anyway.
  if (replyTo !== null && !(await read(core, 'read the answered message', () => chat.findMessage(core.deps.pool, core.id, replyTo)))) {
    throw new AppError('not_found', `replyTo: message ${replyTo} is not in this room's chat (it may have been deleted)`);
  }
  // After every other check: a refused message does not use up the sender's slow mode turn.
  const key = idempotencyKey(command, turn);
  const stands = (): Promise<boolean> => read(core, 'look the resent message up', () => chat.messageStands(core.deps.pool, core.id, key));
  const text = await moderateChat(core, access, checkChatText(command.text), 'chat', { key, stands });
  const name = (await followDisplayName(core, access))?.name ?? displayName(access.name, access.userId);
  const mentions = mentionsIn(core, text, access.userId);
  const stored = await core.fencedWrite('store the chat message', (fence) =>
    CHAT_WRITER.of(core).write({ fence, roomId: core.id, message: { userId: access.userId, name, text, commandId: key, replyTo, mentions, createdAt: core.now() } }),
  );
  // A retry finds the message already stored and already published; publishing again would
  // show it twice to clients that do not de-duplicate by id.
  if (stored.created) {
    core.publish({ type: 'chat.message', message: stored.message });
    await notifyMentioned(core, stored.message, stored.message.mentions);
  }
  return { message: stored.message, duplicate: !stored.created };
}

/** Authors change their own words only while the conversation is still about them. */
function requireWithinWindow(core: RoomCore, message: ChatMessage, action: 'edited' | 'deleted'): void {
  if (core.now() - message.createdAt > ROOM_LIMITS.chatEditWindowMs) {
    const minutes = ROOM_LIMITS.chatEditWindowMs / 60_000;
    throw new AppError('conflict', `messages can be ${action} by their author for ${minutes} minutes after sending; message ${message.id} is older`);
  }
}

export async function editMessage(core: RoomCore, command: RoomCommandOf<'chat.edit'>, turn: Turn): Promise<RoomResults['chat.edit']> {
  const { access } = turn;
  core.require(access, 'send_chat', 'editing messages');
  // The word filter applies to an edit as to a send (else an edit would undo it); slow mode
  // paces new messages only.
  const text = applyWordFilter(checkChatText(command.text), core.current.options.wordFilter);
  let added: string[] = [];
  const result = await core.commit(turn, 'edit the chat message', async (client) => {
    const message = await chat.lockMessage(client, core.id, command.messageId);
    if (!message) throw new AppError('not_found', `message ${command.messageId} is not in this room's chat`);
    if (message.userId !== access.userId) throw new AppError('forbidden', 'only its author may edit a message');
    requireWithinWindow(core, message, 'edited');
    const mentions = mentionsIn(core, text, access.userId);
    // Those mentioned before were notified then; an edit notifies only the newly mentioned.
    added = mentions.filter((id) => !message.mentions.includes(id));
    const updated = await chat.editMessage(client, core.id, message.id, text, mentions, core.now());
    return { message: updated ?? message };
  });
  core.publish({ type: 'chat.edited', message: result.message });
  await notifyMentioned(core, result.message, added);
  return result;
}

/** One page of `rows` read with one row more than `limit`, which tells whether an older page exists. */
function page(rows: ChatMessage[], limit: number): { messages: ChatMessage[]; nextBefore: string | null } {
  const messages = rows.slice(0, limit);
  const last = messages[messages.length - 1];
  return { messages, nextBefore: rows.length > limit && last ? last.id : null };
}

export async function chatHistory(core: RoomCore, command: RoomCommandOf<'chat.history'>, turn: Turn): Promise<RoomResults['chat.history']> {
  core.require(turn.access, 'view_chat_history', 'reading chat history');
  const limit = command.limit ?? ROOM_LIMITS.chatHistoryDefaultLimit;
  return page(await read(core, 'read chat history', () => chat.history(core.deps.pool, core.id, command.before, limit + 1)), limit);
}

export async function deleteMessage(core: RoomCore, command: RoomCommandOf<'chat.delete'>, turn: Turn): Promise<RoomResults['chat.delete']> {
  const { access } = turn;
  const result = await core.commit(turn, 'delete the chat message', async (client) => {
    const message = await chat.lockMessage(client, core.id, command.messageId);
    if (!message) throw new AppError('not_found', `message ${command.messageId} is not in this room's chat`);
    // Authors may take back their own words within the edit window; moderators (delete_chat)
    // delete any message any time, their own included.
    if (message.userId !== access.userId) core.require(access, 'delete_chat', "deleting other people's messages");
    else if (!access.permissions.has('delete_chat')) requireWithinWindow(core, message, 'deleted');
    await chat.deleteMessage(client, core.id, message.id);
    return { messageId: command.messageId };
  });
  core.publish({ type: 'chat.deleted', messageId: command.messageId, by: access.userId });
  return result;
}

async function setPinned(core: RoomCore, messageId: string, pinned: boolean, turn: Turn): Promise<{ message: ChatMessage }> {
  const { access } = turn;
  core.require(access, 'pin_chat', pinned ? 'pinning messages' : 'unpinning messages');
  // 0 means no pins at all: the setting's range (0..=1000) has no "unlimited" value, unlike
  // chat.maxMessagesPerRoom, so 0 is taken literally.
  const maxPinned = core.deps.settings.get('chat.maxPinnedMessagesPerRoom');
  let changed = false;
  const result = await core.commit(turn, pinned ? 'pin the message' : 'unpin the message', async (client) => {
    const message = await chat.lockMessage(client, core.id, messageId);
    if (!message) throw new AppError('not_found', `message ${messageId} is not in this room's chat`);
    if (message.pinned === pinned) return { message };
    if (pinned) {
      const count = await chat.countPinned(client, core.id);
      if (count >= maxPinned) {
        throw new AppError('limit_exceeded', `this room already has ${count} pinned messages (chat.maxPinnedMessagesPerRoom = ${maxPinned})`);
      }
    }
    const updated = await chat.setPinned(client, core.id, messageId, pinned);
    changed = true;
    return { message: updated ?? message };
  });
  if (changed) core.publish({ type: 'chat.pinned', message: result.message, by: access.userId });
  return result;
}

export function pinMessage(core: RoomCore, command: RoomCommandOf<'chat.pin'>, turn: Turn): Promise<RoomResults['chat.pin']> {
  return setPinned(core, command.messageId, true, turn);
}

export function unpinMessage(core: RoomCore, command: RoomCommandOf<'chat.unpin'>, turn: Turn): Promise<RoomResults['chat.unpin']> {
  return setPinned(core, command.messageId, false, turn);
}

/** Paged like history: up to 1000 pinned messages of 2000 characters would not fit one NATS message. */
export async function pinnedMessages(core: RoomCore, command: RoomCommandOf<'chat.pins'>, turn: Turn): Promise<RoomResults['chat.pins']> {
  core.require(turn.access, 'view_chat_history', 'reading pinned messages');
  const limit = command.limit ?? ROOM_LIMITS.chatHistoryDefaultLimit;
  return page(await read(core, 'read pinned messages', () => chat.pinnedMessages(core.deps.pool, core.id, command.before, limit + 1)), limit);
}
