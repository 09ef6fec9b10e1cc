/**
 * Keeps the screen on while the room plays (the Screen Wake Lock API): a phone propped up for a
 * film must not dim and lock half-way. Requested while `wanted` and the page is visible; the
 * browser releases the lock itself when the page is hidden, so it is asked again when the page
 * shows; released when playback pauses or the player goes. Failures (no API, not allowed, a
 * battery saver) are silent: the screen then behaves as it always does.
 */
import { useEffect } from 'preact/hooks';

export function useWakeLock(wanted: boolean): void {
  useEffect(() => {
    if (!wanted || !('wakeLock' in navigator)) return;
    let sentinel: WakeLockSentinel | null = null;
    let asking = false;
    let done = false;
    const acquire = (): void => {
      if (done || asking || document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      asking = true;
      navigator.wakeLock
        .request('screen')
        .then((granted) => {
          if (done) void granted.release().catch(() => undefined);
          else sentinel = granted;
        })
        .catch(() => undefined)
        .finally(() => {
          asking = false;
        });
    };
    acquire();
    document.addEventListener('visibilitychange', acquire);
    return () => {
      done = true;
      document.removeEventListener('visibilitychange', acquire);
      void sentinel?.release().catch(() => undefined);
    };
  }, [wanted]);
}
