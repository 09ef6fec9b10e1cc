/**
 * Mentions: `@name` of a member of the room, resolved when a message is sent or edited, and a
 * `chat.mention` notification for each mentioned account (guests have no inbox; they still see
 * the message highlighted, from its `mentions`).
 */
import { ROOM_LIMITS } from '../../../contracts/room/limits.js';
import { mentionedIds } from '../../../contracts/room/mentions.js';
import type { ChatMessage } from '../../../contracts/room/model.js';
import type { Notification } from '../../../contracts/notifications.js';
import { recordNotification } from '../../../notifications/index.js';
import { messageOf } from '../../runtime/nats-errors.js';
import type { RoomCore } from '../core.js';
import { excerptOf } from '../../../contracts/room/chat-excerpt.js';

/** The members `text` mentions: active members only, never the sender, at most chatMentionsMax. */
export function mentionsIn(core: RoomCore, text: string, senderId: string): string[] {
  // Most messages mention nobody; a crowd's thousands of candidates are not worth listing for them.
  if (!text.includes('@')) return [];
  const candidates = [...core.members.values()].filter((m) => m.status === 'active').map((m) => ({ id: m.userId, name: m.name }));
  return mentionedIds(text, candidates, senderId, ROOM_LIMITS.chatMentionsMax);
}

/**
 * Stores and pushes a notification for each of `userIds`. After the message is committed and
 * published: a notification lost to an outage here is logged, not a reason to fail a send the
 * room has already shown everyone (its retry would find the message stored and notify nobody).
 */
export async function notifyMentioned(core: RoomCore, message: ChatMessage, userIds: readonly string[]): Promise<void> {
  if (userIds.length === 0) return;
  const payload = {
    kind: 'chat.mention' as const,
    roomId: core.id,
    roomName: core.current.name,
    messageId: message.id,
    by: message.name,
    excerpt: excerptOf(message.text),
  };
  let notes: Notification[] = [];
  try {
    notes = await core.durable('notify the mentioned members', async (client) => {
      const stored: Notification[] = [];
      for (const userId of userIds) {
        const note = await recordNotification(client, userId, payload);
        if (note) stored.push(note);
      }
      return stored;
    });
  } catch (err) {
    core.logger.warn({ err: messageOf(err), messageId: message.id }, 'could not store chat mention notifications');
    return;
  }
  for (const note of notes) core.deps.notifications?.publish(note);
}
