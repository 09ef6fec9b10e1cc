/**
 * Arrow keys between controls: whether an arrow leaves the focused element (or is its own key),
 * and where it goes (spatial-pick.ts over focusables.ts). The rules, so no control loses a key it
 * needs:
 * - a text field keeps left and right (they move the caret) until the caret is at that end (an
 *   empty field lets them go at once, as a TV keyboard field does); up and down leave it (a
 *   textarea's only from its first or last character);
 * - a slider (the seek bar) keeps left and right (they change its value) until its end that way;
 * - a radio keeps the arrows within its group, and leaves it past the group's first or last;
 * - a scrolled element (the chat log) scrolls with up and down until its end, then leaves;
 * - a select leaves with every arrow: Enter opens it (remote.ts);
 * - everything else leaves; a widget with its own arrow keys (the tab list, a menu) handles them
 *   first and prevents the default, so they never reach here.
 * A focused element that holds controls of its own (the chat log's Reply buttons, a playlist row
 * you can reorder) is entered with down or right, at its first control in view; from inside,
 * the arrows go on by geometry as everywhere.
 */
import { pickInDirection, nearest, type Box, type Direction } from './spatial-pick.js';
import { boxOf, candidatesIn, scopeOf } from './focusables.js';

export const DIRECTIONS: Readonly<Record<string, Direction>> = { ArrowUp: 'up', ArrowDown: 'down', ArrowLeft: 'left', ArrowRight: 'right' };

const TEXT_INPUTS = new Set(['text', 'search', 'email', 'password', 'url', 'tel', 'number', 'date', 'time', 'datetime-local', 'month', 'week']);

/** Whether the arrow should move the focus away from `element` (false: the element's own key). */
export function arrowLeaves(element: Element | null, direction: Direction): boolean {
  if (!(element instanceof HTMLElement)) return true;
  const vertical = direction === 'up' || direction === 'down';
  if (element instanceof HTMLTextAreaElement) {
    if (!vertical) return false;
    return direction === 'up' ? element.selectionStart === 0 : element.selectionEnd === element.value.length;
  }
  if (element.isContentEditable) return vertical;
  if (element instanceof HTMLInputElement) {
    if (TEXT_INPUTS.has(element.type)) return vertical || caretAtEnd(element, direction);
    if (element.type === 'range') return vertical || sliderAtEnd(element, direction);
    if (element.type === 'radio') return radioAtEnd(element, direction);
  }
  if (vertical && scrollsFurther(element, direction)) return false;
  return true;
}

/** A collapsed caret at the field's start (left) or end (right); fields without a caret (email, number, dates) keep their arrows. */
function caretAtEnd(input: HTMLInputElement, direction: 'left' | 'right'): boolean {
  let start: number | null;
  let end: number | null;
  try {
    start = input.selectionStart;
    end = input.selectionEnd;
  } catch {
    return false;
  }
  if (start === null || end === null || start !== end) return false;
  return direction === 'left' ? start === 0 : end === input.value.length;
}

/** Whether the arrow can still scroll `element` itself that way (a focused chat log). */
function scrollsFurther(element: HTMLElement, direction: 'up' | 'down'): boolean {
  const overflow = getComputedStyle(element).overflowY;
  if (overflow !== 'auto' && overflow !== 'scroll') return false;
  if (element.scrollHeight <= element.clientHeight + 1) return false;
  return direction === 'up' ? element.scrollTop > 1 : element.scrollTop + element.clientHeight < element.scrollHeight - 1;
}

function sliderAtEnd(slider: HTMLInputElement, direction: 'left' | 'right'): boolean {
  const value = slider.valueAsNumber;
  return direction === 'left' ? value <= Number(slider.min || 0) : value >= Number(slider.max || 100);
}

/** A radio past its group's first (up, left) or last (down, right) radio: the arrow leaves the group. */
function radioAtEnd(radio: HTMLInputElement, direction: Direction): boolean {
  if (!radio.name) return true;
  const root: ParentNode = radio.form ?? radio.getRootNode() as ParentNode;
  const group = [...root.querySelectorAll<HTMLInputElement>(`input[type="radio"][name="${CSS.escape(radio.name)}"]`)].filter((input) => !input.disabled);
  const at = group.indexOf(radio);
  return direction === 'up' || direction === 'left' ? at <= 0 : at >= group.length - 1;
}

/**
 * Moves the focus from the focused element to the nearest candidate that way; true if it moved.
 * With nothing focused, the first candidate on screen takes it.
 */
export function moveFocus(direction: Direction): boolean {
  const from = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
  const candidates = candidatesIn(scopeOf(from), from);
  if (!from) {
    const first = firstOnScreen(candidates.map((candidate) => candidate.item));
    if (first) focusOn(first);
    return first !== null;
  }
  const frame = boxOf(from);
  const inside = candidates.filter((candidate) => from.contains(candidate.item));
  if (direction === 'down' || direction === 'right') {
    const entry = inside.find((candidate) => candidate.box.top >= frame.top - 1 && candidate.box.bottom <= frame.bottom + 1);
    if (entry) {
      focusOn(entry.item);
      return true;
    }
  }
  const around = inside.length > 0 ? candidates.filter((candidate) => !inside.includes(candidate)) : candidates;
  // Inside the scrolled box holding the focus first (a panel, the chat), then the next one out,
  // then the page: the WICG draft's spatial navigation containers. Up from the chat's input is
  // the chat log above it, not a seek bar a little nearer in the player's column.
  for (let container = scrolledBoxAround(from); ; container = scrolledBoxAround(container)) {
    const next = pickInDirection(frame, container ? around.filter((candidate) => container.contains(candidate.item)) : around, direction);
    if (next) {
      focusOn(next);
      return true;
    }
    if (!container) return false;
  }
}

/** The nearest ancestor that scrolls or clips its content (null: the page itself). */
function scrolledBoxAround(element: Element): Element | null {
  for (let box = element.parentElement; box && box !== document.body && box !== document.documentElement; box = box.parentElement) {
    const style = getComputedStyle(box);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') return box;
  }
  return null;
}

/** Focus where `lost` was: the candidate nearest its last place (its element went, or was hidden). */
export function focusNear(lost: Box): boolean {
  const next = nearest(lost, candidatesIn(document, null));
  if (!next) return false;
  focusOn(next);
  return true;
}

export function focusOn(element: HTMLElement): void {
  element.focus({ preventScroll: true });
  // "nearest" moves the page least; tv.css gives focused elements a scroll margin so the ring shows too.
  element.scrollIntoView({ block: 'nearest', inline: 'nearest' });
}

function firstOnScreen(elements: HTMLElement[]): HTMLElement | null {
  return elements.find((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth && element.closest('main');
  }) ?? elements[0] ?? null;
}
