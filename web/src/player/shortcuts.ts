/**
 * The player's keyboard shortcuts, as video sites have them: space or k play/pause, left/right
 * seek 5 s, f fullscreen, t theatre, m mute, anywhere on the room page where nothing else wants
 * the key: never in a text field (the chat's input keeps its letters and spaces), never with a
 * modifier (the browser's own shortcuts), and space and the arrows not on a focused control (a
 * button presses, a tab list moves, a list scrolls as usual). In the TV layout the arrows move the
 * focus (tv/remote.ts): seeking is then the seek bar's own left and right.
 */
import { useEffect, useRef } from 'preact/hooks';
import { tvMode } from '../tv/tv-mode.js';

/** Functions, not methods: each is called detached from the object, as a key's action. */
export interface ShortcutActions {
  togglePlay: () => void;
  seekBy: (seconds: number) => void;
  fullscreen: () => void;
  theatre: () => void;
  mute: () => void;
}

const SEEK_STEP_SECONDS = 5;

export function usePlayerShortcuts(actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      if (target?.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return;
      // Space and the arrows belong to whatever control has focus (a button, a tab, a scrolled list).
      const onControl = target?.closest('a[href], button, summary, [role="tab"], [tabindex]:not([tabindex="-1"])') != null;
      const arrowsFree = !onControl && !tvMode.value;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const act = latest.current;
      const run: Record<string, (() => void) | undefined> = {
        ' ': onControl ? undefined : act.togglePlay,
        k: act.togglePlay,
        ArrowLeft: arrowsFree ? () => act.seekBy(-SEEK_STEP_SECONDS) : undefined,
        ArrowRight: arrowsFree ? () => act.seekBy(SEEK_STEP_SECONDS) : undefined,
        f: act.fullscreen,
        t: act.theatre,
        m: act.mute,
      };
      const action = run[key];
      if (!action) return;
      event.preventDefault();
      action();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
