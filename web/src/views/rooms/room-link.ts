/**
 * What a person pastes to join a room: its whole link (from any address of this server, or
 * without the scheme), a path, or the bare code (the room id at the end of the link). Answers
 * the room's path here, or null when the text is neither.
 */
const ROOM_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function roomPathFrom(text: string): string | null {
  const input = text.trim();
  const inLink = /\/rooms\/([^/?#\s]+)\/?(?:[?#].*)?$/.exec(input)?.[1];
  let id = inLink ?? input;
  try {
    id = decodeURIComponent(id);
  } catch {
    return null;
  }
  return ROOM_ID.test(id) ? `/rooms/${encodeURIComponent(id)}` : null;
}
