/**
 * A chat message as one line of mpv's OSD (`--chat`): "name: text", on one line and cut to what
 * fits over a picture. mpv's JSON IPC does not expand `${...}` in `show-text`, so the text is
 * shown as written.
 */
import type { ChatMessage } from '../../contracts/room/model.js';

const MAX_CHARS = 160;

export function chatLine(message: Pick<ChatMessage, 'name' | 'text'>): string {
  const text = message.text.replace(/\s+/g, ' ').trim();
  const line = `${message.name}: ${text}`;
  return line.length > MAX_CHARS ? `${line.slice(0, MAX_CHARS - 1)}…` : line;
}
