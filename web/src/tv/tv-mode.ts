/**
 * Whether the page is in the 10-foot (TV) layout: `?tv` in the address turns it on and `?tv=0`
 * off, for the rest of the tab's session (sessionStorage), so in-app navigation, which drops the
 * query, keeps it; without either, a wide screen (960 px or more) whose only pointer is none (a
 * TV browser driven by a remote: `any-pointer: none`) gets it. The document carries
 * `data-tv` while it is on: tv.css reads that, and `tvMode` tells the components (the player's
 * arrow keys, the auto-hiding controls, the tab list's ends). See docs/2026-11-29-tv-layout.md.
 */
import { signal } from '@preact/signals';
import './tv.css';

const KEY = 'svc.tv';
const NO_POINTER = '(any-pointer: none)';
const WIDE = '(min-width: 960px)';

export const tvMode = signal(false);

type Choice = 'on' | 'off' | null;

/** `?tv`, `?tv=1`, `?tv=on` turn it on; `?tv=0`, `?tv=off`, `?tv=false` off; no `tv` parameter: no choice. */
export function choiceFromQuery(search: string): Choice {
  const value = new URLSearchParams(search).get('tv');
  if (value === null) return null;
  return ['0', 'off', 'false', 'no'].includes(value.trim().toLowerCase()) ? 'off' : 'on';
}

function rememberedChoice(): Choice {
  try {
    const stored = sessionStorage.getItem(KEY);
    return stored === 'on' || stored === 'off' ? stored : null;
  } catch {
    return null; // storage refused: the address alone decides
  }
}

function remember(choice: Choice): void {
  try {
    if (choice) sessionStorage.setItem(KEY, choice);
  } catch {
    // kept for this page only
  }
}

/** Reads the address and the screen once at start-up, then follows the screen (a window moved to the TV). */
export function startTvMode(): void {
  const fromQuery = choiceFromQuery(location.search);
  remember(fromQuery);
  const choice = fromQuery ?? rememberedChoice();
  const noPointer = matchMedia(NO_POINTER);
  const wide = matchMedia(WIDE);
  const apply = () => {
    tvMode.value = choice === 'on' || (choice === null && noPointer.matches && wide.matches);
    document.documentElement.toggleAttribute('data-tv', tvMode.value);
  };
  apply();
  if (choice === null) {
    noPointer.addEventListener('change', apply);
    wide.addEventListener('change', apply);
  }
}
