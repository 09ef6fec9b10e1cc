/**
 * The one call chat and danmaku make before storing text: the room's word filter, then its
 * slow mode (docs/2026-11-26-chat-moderation.md). A filtered message refused in `block` mode
 * does not use up the sender's slow mode turn.
 */
import type { RoomCore } from '../core.js';
import type { Access } from '../turn.js';
import type { SlowChannel } from './slow-mode.js';
import { applyWordFilter } from './word-filter.js';

/**
 * Who slow mode does not pace: the holders of delete_chat, who moderate the chat (room admins by
 * default) and must be able to answer a flood they are cleaning up.
 */
export function exemptFromSlowMode(access: Access): boolean {
  return access.service || access.permissions.has('delete_chat');
}

/**
 * `text` as the room will store it (masked, if the filter masks), or a refusal: invalid_argument
 * naming `text` (filter in block mode), rate_limited with the wait (slow mode).
 * `retryKey`: the client's idempotency key, whose resend is not a second message.
 */
export function moderateChat(core: RoomCore, access: Access, text: string, channel: SlowChannel, retryKey?: string): string {
  const { options } = core.current;
  const filtered = applyWordFilter(text, options.wordFilter);
  if (options.slowModeSeconds > 0 && !exemptFromSlowMode(access)) {
    core.slowMode.admit(access.userId, channel, options.slowModeSeconds, core.now(), retryKey);
  }
  return filtered;
}
