/**
 * Whether the controls over the video should show: always while paused, and while playing only
 * for a moment after the pointer moves (or touches) over the player or a key is pressed in it,
 * so the picture is not covered. Keyboard focus inside the controls keeps them shown (CSS
 * :focus-within), so a keyboard user never tabs into invisible buttons. In the TV layout any key
 * anywhere on the page brings them back: a remote has no pointer to move over the player.
 */
import type { RefObject } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { tvMode } from '../tv/tv-mode.js';

/** How long the controls stay after the last movement while playing (what video sites use). */
const HIDE_AFTER_MS = 2500;

export function useAutoHide(inside: RefObject<HTMLElement | null>, playing: boolean): boolean {
  const [active, setActive] = useState(true);
  useEffect(() => {
    const player = inside.current?.closest<HTMLElement>('.player');
    if (!player) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poke = () => {
      setActive(true);
      clearTimeout(timer);
      timer = setTimeout(() => setActive(false), HIDE_AFTER_MS);
    };
    const leave = () => {
      clearTimeout(timer);
      setActive(false);
    };
    poke();
    const events = ['pointermove', 'pointerdown', 'keydown', 'focusin'] as const;
    for (const name of events) player.addEventListener(name, poke);
    player.addEventListener('pointerleave', leave);
    const remote = tvMode.value;
    if (remote) document.addEventListener('keydown', poke);
    return () => {
      clearTimeout(timer);
      for (const name of events) player.removeEventListener(name, poke);
      player.removeEventListener('pointerleave', leave);
      if (remote) document.removeEventListener('keydown', poke);
    };
  }, [inside, tvMode.value]);
  return !playing || active;
}
