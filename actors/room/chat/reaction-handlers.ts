/**
 * Reactions: on a chat message (stored with it, one per member per reaction) and over the video
 * (a transient burst, published and forgotten). Both need send_chat, as posting does: a reaction
 * is a small message.
 */
import { AppError } from '../../../errors/index.js';
import type { RoomCommandOf } from '../../../contracts/room/commands.js';
import type { RoomResults } from '../../../contracts/room/results.js';
import type { RoomCore, Turn } from '../core.js';
import { lockMessage } from './chat-store.js';
import { addReaction, reactionsOf, removeReaction } from './reaction-store.js';

async function setReaction(
  core: RoomCore,
  command: RoomCommandOf<'chat.react'> | RoomCommandOf<'chat.unreact'>,
  turn: Turn,
  on: boolean,
): Promise<RoomResults['chat.react']> {
  const { access } = turn;
  core.require(access, 'send_chat', on ? 'reacting to messages' : 'taking back reactions');
  let changed = false;
  const result = await core.commit(turn, on ? 'store the reaction' : 'remove the reaction', async (client) => {
    // Locked so two reactions to one message publish their lists in the order they were stored.
    const message = await lockMessage(client, core.id, command.messageId);
    if (!message) throw new AppError('not_found', `message ${command.messageId} is not in this room's chat`);
    changed = on
      ? await addReaction(client, message.id, command.reaction, access.userId)
      : await removeReaction(client, message.id, command.reaction, access.userId);
    return { messageId: message.id, reactions: changed ? await reactionsOf(client, message.id) : message.reactions };
  });
  if (changed) core.publish({ type: 'chat.reactions', messageId: result.messageId, reactions: result.reactions, by: access.userId });
  return result;
}

export function react(core: RoomCore, command: RoomCommandOf<'chat.react'>, turn: Turn): Promise<RoomResults['chat.react']> {
  return setReaction(core, command, turn, true);
}

export function unreact(core: RoomCore, command: RoomCommandOf<'chat.unreact'>, turn: Turn): Promise<RoomResults['chat.unreact']> {
  return setReaction(core, command, turn, false);
}

/**
 * Not stored and not recorded: a burst is only worth seeing now, and a retried send at worst
 * shows one more floating emoji. The gateways count it against the sender's chat rate.
 */
export function sendReaction(core: RoomCore, command: RoomCommandOf<'reaction.send'>, turn: Turn): Promise<RoomResults['reaction.send']> {
  core.require(turn.access, 'send_chat', 'sending reactions');
  core.publish({ type: 'reaction', userId: turn.access.userId, reaction: command.reaction });
  return Promise.resolve({ sent: true });
}
