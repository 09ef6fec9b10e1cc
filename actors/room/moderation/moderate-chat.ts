/**
 * The one call chat and danmaku make before storing text: the room's word filter, then its
 * slow mode (docs/2026-11-26-chat-moderation.md). A filtered message refused in `block` mode
 * does not use up the sender's slow mode turn. An edit asks the word filter alone.
 */
import { StateSlice, type RoomCore } from '../core.js';
import type { Access } from '../turn.js';
import { SlowMode, type SlowChannel } from './slow-mode.js';
import { applyWordFilter } from './word-filter.js';

export { applyWordFilter };

/** Each member's last chat and danmaku send while slow mode is on, in memory only (slow-mode.ts). */
export const SLOW_MODE = new StateSlice('slow mode', () => new SlowMode());

/**
 * Who slow mode does not pace: the holders of delete_chat, who moderate the chat (room admins by
 * default) and must be able to answer a flood they are cleaning up.
 */
export function exemptFromSlowMode(access: Access): boolean {
  return access.service || access.permissions.has('delete_chat');
}

/** A send's idempotency key, and how to tell whether the message first sent under it still stands. */
export interface RetryKey {
  key: string;
  stands(): Promise<boolean>;
}

/**
 * `text` as the room will store it (masked, if the filter masks), or a refusal: invalid_argument
 * naming `text` (filter in block mode), rate_limited with the wait (slow mode).
 * `retry`: the client's idempotency key, whose resend is not a second message while the first
 * still stands (the store then answers with it). Once it is deleted, the key would store a new
 * message, so it is paced: delete and resend is not a way around slow mode.
 */
export async function moderateChat(core: RoomCore, access: Access, text: string, channel: SlowChannel, retry?: RetryKey): Promise<string> {
  const { options } = core.current;
  const filtered = applyWordFilter(text, options.wordFilter);
  if (options.slowModeSeconds > 0 && !exemptFromSlowMode(access)) {
    // The store is asked only for a resend of the last send, the one case it decides.
    const slowMode = SLOW_MODE.of(core);
    const resend = retry !== undefined && slowMode.isLastSend(access.userId, channel, retry.key) && (await retry.stands());
    slowMode.admit(access.userId, channel, options.slowModeSeconds, core.now(), retry?.key, resend);
  }
  return filtered;
}
