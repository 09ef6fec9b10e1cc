/**
 * The room this page just started (home page or create form), so the room can greet its owner
 * with the share link ready and say whether it is already on the clipboard. Page memory only: a
 * reload or a later visit shows the room as usual.
 */
import { signal } from '@preact/signals';

export const startedRoom = signal<{ roomId: string; copied: boolean } | null>(null);

export function roomLink(roomId: string): string {
  return `${location.origin}/rooms/${encodeURIComponent(roomId)}`;
}

/**
 * Notes the started room and copies its link while the click that started it still counts as
 * the person's gesture (the Clipboard API asks for one). Refused copies (http on a LAN address,
 * no permission) are fine: the room shows the link to copy by hand.
 */
export async function noteStartedRoom(roomId: string): Promise<void> {
  let copied = false;
  try {
    await navigator.clipboard.writeText(roomLink(roomId));
    copied = true;
  } catch {
    // shown in the room instead
  }
  startedRoom.value = { roomId, copied };
}
