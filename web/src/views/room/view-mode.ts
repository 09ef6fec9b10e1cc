/**
 * Theatre mode: the video takes the page's whole width and the panels move below it. A choice of
 * the viewer, not of the room, so it lives in this browser (kept across visits) and is shared by
 * the player's button, its `t` key and the room layout.
 */
import { signal } from '@preact/signals';

const KEY = 'svc.theatre';

function stored(): boolean {
  try {
    return localStorage.getItem(KEY) === '1';
  } catch {
    return false; // storage refused (a privacy mode): theatre starts off
  }
}

export const theatre = signal(stored());

export function toggleTheatre(): void {
  theatre.value = !theatre.value;
  try {
    localStorage.setItem(KEY, theatre.value ? '1' : '0');
  } catch {
    // kept for this page only
  }
}
