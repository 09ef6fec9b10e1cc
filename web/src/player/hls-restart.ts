/**
 * hls.js (1.7) can stop loading a VOD for good: seen on the shared transcode under load, where a
 * segment answered 503 (a seek by another viewer moved the encoder) while the same attach's init
 * segment was still on its way; the retry's two requests were aborted at once and nothing was
 * asked again. The element stayed empty (readyState 0, no error) while the room played on, and the
 * other viewers reached the end and moved the room to the next item without this one.
 *
 * So a VOD with no picture where it stands this long after it was attached, or sought, or left
 * waiting for data, is told to load again from where the room is (`stopLoad` aborts what hls.js
 * has in flight and resets its state; `startLoad` asks anew, init segment first); each further
 * try waits twice as long. A picture ends the watch. docs/2026-11-30-hls-restart.md.
 */
import type Hls from 'hls.js';

/** How long a VOD may go without a picture where it stands before hls.js is told to load again. */
const HLS_NO_PICTURE_MS = 8_000;

/** HTMLMediaElement.HAVE_CURRENT_DATA: a picture where the element stands. */
const HAVE_CURRENT_DATA = 2;
/** What the watch reads of the element (an HTMLVideoElement). */
export interface WatchedElement {
  readonly readyState: number;
  readonly currentTime: number;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
}

/** The element's events after which a picture is due (the watch starts or goes on). */
const AWAITING = ['seeking', 'waiting'] as const;
/** The element's events that mean a picture is there (the watch ends). */
const SHOWING = ['loadeddata', 'canplay', 'playing'] as const;

/**
 * Watches `video` played by `player` and restarts its loading at `position()` (where the room is,
 * else where the element stands) when no picture came in time; returns how to stop watching.
 */
export function restartWhenStuck(video: WatchedElement, player: Pick<Hls, 'stopLoad' | 'startLoad'>, position: () => number | undefined, firstMs = HLS_NO_PICTURE_MS): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let waitMs = firstMs;
  const arm = (): void => {
    if (timer !== undefined) return;
    timer = setTimeout(check, waitMs);
  };
  const check = (): void => {
    timer = undefined;
    if (video.readyState >= HAVE_CURRENT_DATA) {
      waitMs = firstMs;
      return;
    }
    player.stopLoad();
    player.startLoad(position() ?? video.currentTime);
    waitMs *= 2;
    arm();
  };
  const showing = (): void => {
    clearTimeout(timer);
    timer = undefined;
    waitMs = firstMs;
  };
  for (const type of AWAITING) video.addEventListener(type, arm);
  for (const type of SHOWING) video.addEventListener(type, showing);
  arm();
  return () => {
    clearTimeout(timer);
    for (const type of AWAITING) video.removeEventListener(type, arm);
    for (const type of SHOWING) video.removeEventListener(type, showing);
  };
}
