/**
 * A TV remote's keys in the TV layout (tv-mode.ts): the arrows move the focus (spatial-nav.ts),
 * Enter activates what is focused, Back steps out (back.ts), and the focus is never lost: when
 * the focused element goes away or is hidden (a playlist row's Play button once its item plays),
 * the nearest control takes it, so a remote always has somewhere to start from; and when the
 * layout moves it off the screen (theatre mode makes the video taller), the page scrolls to it.
 * Installed once; it does nothing outside the TV layout.
 */
import { tvMode } from './tv-mode.js';
import { DIRECTIONS, arrowLeaves, focusNear, moveFocus } from './spatial-nav.js';
import { goBack } from './back.js';
import { boxOf } from './focusables.js';
import type { Box } from './spatial-pick.js';

/** The keys a remote sends for Back (Escape on a keyboard; Backspace where it is not typing). */
const BACK_KEYS = new Set(['Escape', 'Backspace', 'BrowserBack', 'GoBack']);
/** Roles of custom controls Enter should press like a button (native buttons and links press themselves). */
const PRESSABLE = '[role="button"], [role="tab"], [role="menuitem"], [role="menuitemradio"], [role="menuitemcheckbox"], [role="option"], [role="switch"], [role="checkbox"], [role="radio"], [role="link"]';

export function startRemote(): void {
  document.addEventListener('keydown', onKey);
  keepFocus();
}

function onKey(event: KeyboardEvent): void {
  if (!tvMode.value || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
  const focused = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  const direction = DIRECTIONS[event.key];
  if (direction) {
    if (!arrowLeaves(focused, direction)) return;
    // A slider's up and down, and a select's arrows, would change the value: they only move here.
    const ownsArrows = focused instanceof HTMLSelectElement || (focused instanceof HTMLInputElement && focused.type === 'range');
    if (moveFocus(direction) || ownsArrows) event.preventDefault();
    return;
  }
  if (event.key === 'Enter' && focused && press(focused)) {
    event.preventDefault();
    return;
  }
  if (BACK_KEYS.has(event.key) && !(event.key === 'Backspace' && isTyping(focused)) && goBack()) event.preventDefault();
}

/** What Enter does where the browser does nothing: opens a select, ticks a box, presses a custom control. */
function press(element: HTMLElement): boolean {
  if (element instanceof HTMLSelectElement) {
    try {
      element.showPicker();
    } catch {
      return false; // no picker here (an old browser): the arrows of an open list are its own
    }
    return true;
  }
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
    element.click();
    return true;
  }
  if (!(element instanceof HTMLButtonElement || element instanceof HTMLAnchorElement || element instanceof HTMLInputElement) && element.matches(PRESSABLE)) {
    element.click();
    return true;
  }
  return false;
}

function isTyping(element: HTMLElement | null): boolean {
  if (!element) return false;
  if (element.isContentEditable || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  return element instanceof HTMLInputElement && !['button', 'submit', 'reset', 'checkbox', 'radio', 'range', 'color', 'file', 'image'].includes(element.type);
}

/**
 * Follows the focused element's place; when it leaves the page or is hidden and the focus falls
 * to the body, focuses the candidate nearest where it was. Checked once per frame after a change
 * of the page, so a component that moves the focus itself (the playlist after a move) wins.
 */
function keepFocus(): void {
  let last: { element: Element; box: Box; onPage: { left: number; top: number } } | null = null;
  let queued = false;
  const check = () => {
    queued = false;
    if (!tvMode.value) return;
    const active = document.activeElement;
    const fine = active && active !== document.body && active.isConnected && active.checkVisibility({ visibilityProperty: true });
    if (fine) {
      const box = boxOf(active);
      const onPage = { left: box.left + scrollX, top: box.top + scrollY };
      // Moved on the page (not by scrolling it: the reader may scroll past the last control) and now off the screen.
      const moved = last?.element === active && (Math.abs(last.onPage.left - onPage.left) > 1 || Math.abs(last.onPage.top - onPage.top) > 1);
      if (moved && (box.top < 0 || box.bottom > innerHeight || box.left < 0 || box.right > innerWidth)) active.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      last = { element: active, box: boxOf(active), onPage };
      return;
    }
    if (last && (!last.element.isConnected || !last.element.checkVisibility({ visibilityProperty: true }) || active === document.body)) {
      const lostBox = last.box;
      last = null;
      focusNear(lostBox);
    }
  };
  const queue = () => {
    if (queued || !tvMode.value) return;
    queued = true;
    requestAnimationFrame(check);
  };
  // Where a control is when it takes the focus is noted at once, not at the next frame: a key
  // pressed before that frame (Enter on theatre mode) may already have moved it, and a place first
  // noted after the move would never count as one.
  const focused = (event: FocusEvent) => {
    if (tvMode.value && event.target instanceof Element && event.target === document.activeElement) {
      const box = boxOf(event.target);
      last = { element: event.target, box, onPage: { left: box.left + scrollX, top: box.top + scrollY } };
    }
    queue();
  };
  document.addEventListener('focusin', focused);
  new MutationObserver(queue).observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['hidden', 'class', 'open', 'disabled', 'inert'] });
}
