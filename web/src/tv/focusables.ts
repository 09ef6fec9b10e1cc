/**
 * The elements a remote's arrow keys may land on: whatever is focusable in the tab order
 * (tabindex 0 or more, not disabled) and shown. "Shown" ignores opacity on purpose: the player's
 * controls fade out while the video plays, and focus on one of them brings them back
 * (`:focus-within`), so they stay reachable. Roving groups (a tab list, a menu) expose only their
 * active member this way, and move within themselves with their own keys. An open modal dialog
 * or menu keeps the choice inside it. Nothing here knows the room's controls: a button added
 * tomorrow is a candidate the moment it is drawn.
 */
import type { Box, Candidate } from './spatial-pick.js';

/** Iframes are left out: an embedded player (YouTube) would swallow every key that follows. */
const FOCUSABLE = 'a[href], button, input:not([type="hidden"]), select, textarea, summary, [tabindex], [contenteditable=""], [contenteditable="true"]';

/** An element that can take focus from a remote and is drawn somewhere on the page. */
export function isCandidate(element: Element): element is HTMLElement {
  if (!(element instanceof HTMLElement) || element.tabIndex < 0) return false;
  if ((element as HTMLButtonElement).disabled === true || element.closest('[inert]')) return false;
  // A closed <details> keeps its content out of the rendering, but its <summary> is drawn.
  const details = element.parentElement?.closest('details:not([open])');
  if (details && details.querySelector(':scope > summary') !== element) return false;
  if (!element.checkVisibility({ visibilityProperty: true })) return false;
  const box = element.getBoundingClientRect();
  // Visually hidden helpers (1 px) and skip links parked off the page are not places to go.
  if (box.width <= 1 || box.height <= 1) return false;
  return box.right + scrollX > 0 && box.bottom + scrollY > 0;
}

/** Where the candidates are looked for: an open modal dialog or menu around `from`, else the document. */
export function scopeOf(from: Element | null): ParentNode {
  const modal = document.querySelector('dialog[open]:modal');
  if (modal) return modal;
  return from?.closest('[role="menu"], [role="listbox"]') ?? document;
}

export function candidatesIn(scope: ParentNode, except: Element | null): Candidate<HTMLElement>[] {
  const found: Candidate<HTMLElement>[] = [];
  for (const element of scope.querySelectorAll(FOCUSABLE)) {
    if (element === except || !isCandidate(element)) continue;
    found.push({ box: boxOf(element), item: element });
  }
  return found;
}

export function boxOf(element: Element): Box {
  const { left, top, right, bottom } = element.getBoundingClientRect();
  return { left, top, right, bottom };
}
