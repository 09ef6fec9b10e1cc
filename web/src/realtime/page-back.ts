/**
 * The page coming back after being away, as a phone does it: shown again (`visibilitychange` to
 * visible), unfrozen (the Page Lifecycle `resume`, Chromium; the page may still be hidden but
 * runs again), or restored from the back/forward cache (`pageshow` with `persisted`). The room's
 * socket checks itself then (connection.ts) and the player measures its clock and drift afresh
 * (player-sync.ts). One return usually fires two of these (resume, then visible): listeners
 * must be cheap to call twice.
 */
export function onPageBack(listener: () => void): () => void {
  const visibility = (): void => {
    if (document.visibilityState === 'visible') listener();
  };
  const shown = (event: PageTransitionEvent): void => {
    if (event.persisted) listener();
  };
  document.addEventListener('visibilitychange', visibility);
  document.addEventListener('resume', listener);
  window.addEventListener('pageshow', shown);
  return () => {
    document.removeEventListener('visibilitychange', visibility);
    document.removeEventListener('resume', listener);
    window.removeEventListener('pageshow', shown);
  };
}
