/**
 * The player's keyboard shortcuts, as video sites have them: space or k play/pause, left/right
 * seek 5 s, f fullscreen, t theatre, m mute. They act when nothing else wants the key: focus on
 * the page itself or inside the player, never in a text field (the chat's input keeps its
 * spaces), never with a modifier (the browser's own shortcuts), and space on a focused button
 * presses that button as usual.
 */
import type { RefObject } from 'preact';
import { useEffect, useRef } from 'preact/hooks';

export interface ShortcutActions {
  togglePlay(): void;
  seekBy(seconds: number): void;
  fullscreen(): void;
  theatre(): void;
  mute(): void;
}

const SEEK_STEP_SECONDS = 5;

export function usePlayerShortcuts(inside: RefObject<HTMLElement | null>, actions: ShortcutActions): void {
  const latest = useRef(actions);
  latest.current = actions;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof HTMLElement ? event.target : null;
      const player = inside.current?.closest('.player');
      if (target && target !== document.body && !player?.contains(target)) return;
      if (target?.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return;
      const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
      const act = latest.current;
      const run: Record<string, (() => void) | undefined> = {
        ' ': target?.closest('button, a, summary') ? undefined : act.togglePlay,
        k: act.togglePlay,
        ArrowLeft: () => act.seekBy(-SEEK_STEP_SECONDS),
        ArrowRight: () => act.seekBy(SEEK_STEP_SECONDS),
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
  }, [inside]);
}
