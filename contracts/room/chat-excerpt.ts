import { ROOM_LIMITS } from './limits.js';

/**
 * The first characters of a message, as a reply quotes it and a mention notification shows it:
 * code points, so no emoji is cut in half. A leaf module, shared by the room actor and the web
 * client (which re-quotes a reply when its original is edited).
 */
export function excerptOf(text: string): string {
  const chars = Array.from(text);
  const max = ROOM_LIMITS.chatReplyExcerptChars;
  return chars.length > max ? `${chars.slice(0, max).join('').trimEnd()}…` : text;
}
