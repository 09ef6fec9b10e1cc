/**
 * Whether the page can reach its server, as a signal for the offline notice. The browser's
 * `navigator.onLine` is believed when it says offline; when it says online, it may only mean a
 * network interface is up (a captive portal, a server that is down, or an emulated offline that
 * the browser does not report), so a page opened from the service worker's cached shell asks
 * the server itself: a HEAD of /sw.js, which the worker never answers from its cache. While
 * unreachable, it asks again every few seconds, so the notice goes once the network is back.
 */
import { signal } from '@preact/signals';

export const online = signal(true);

const RETRY_MS = 5_000;
let retry: ReturnType<typeof setTimeout> | undefined;

export function followOnline(): void {
  window.addEventListener('offline', () => void check());
  window.addEventListener('online', () => void check());
  // A page the network served is online; one the worker served may not be.
  if (!navigator.onLine || navigator.serviceWorker?.controller) void check();
}

async function check(): Promise<void> {
  clearTimeout(retry);
  let reachable = navigator.onLine;
  if (reachable) {
    try {
      await fetch('/sw.js', { method: 'HEAD', cache: 'no-store' });
    } catch {
      reachable = false;
    }
  }
  online.value = reachable;
  if (!reachable) retry = setTimeout(() => void check(), RETRY_MS);
}
