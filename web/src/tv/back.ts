/**
 * What a remote's Back does, in this order (docs/2026-11-29-tv-layout.md): close what is open
 * (a menu button's menu, a modal dialog, the <details> holding the focus) and put the focus on
 * what opened it; else leave the panel holding the focus for its tab; else leave fullscreen,
 * then theatre mode; else go back in the history. Each press does one of these.
 */
import { theatre, toggleTheatre } from '../views/room/view-mode.js';

/** Does the next step of Back; false when there was nothing left to do (no history either). */
export function goBack(): boolean {
  return closeOpen() || leavePanel() || leaveBigPicture() || backInHistory();
}

function closeOpen(): boolean {
  const opener = document.querySelector<HTMLElement>('[aria-haspopup][aria-expanded="true"]');
  if (opener) {
    opener.click(); // its own toggle closes the popup, whatever it is
    opener.focus();
    return true;
  }
  const dialog = document.querySelector<HTMLDialogElement>('dialog[open]');
  if (dialog) {
    dialog.close();
    return true;
  }
  const details = document.activeElement?.closest<HTMLDetailsElement>('details[open]');
  if (details) {
    details.open = false;
    details.querySelector<HTMLElement>(':scope > summary')?.focus();
    return true;
  }
  return false;
}

/** From inside a tab panel back to its tab, where left and right choose another panel. */
function leavePanel(): boolean {
  const panel = document.activeElement?.closest('[role="tabpanel"]');
  const tabId = panel?.getAttribute('aria-labelledby');
  const tab = tabId ? document.getElementById(tabId) : null;
  if (!tab) return false;
  tab.focus();
  return true;
}

function leaveBigPicture(): boolean {
  if (document.fullscreenElement) {
    void document.exitFullscreen().catch(() => undefined);
    return true;
  }
  if (theatre.value && document.querySelector('.room-layout.is-theatre')) {
    toggleTheatre();
    return true;
  }
  return false;
}

function backInHistory(): boolean {
  if (history.length <= 1) return false;
  history.back();
  return true;
}
