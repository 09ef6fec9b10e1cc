/**
 * The page's side of the service worker (sw.ts): registers it once the page has loaded (its
 * precache then does not compete with the first render), asks for an update check whenever the
 * page is shown again (a tab left open for days still hears of a new build), and holds the
 * waiting new version until the person presses Reload on the notice (notices.tsx). Only then is
 * the worker told to take over, and the page reloads once it has.
 */
import { signal } from '@preact/signals';
import type { SkipWaitingMessage } from './sw-scope.js';

/** A new version, installed and waiting for the person's Reload; null while there is none (or it was put off). */
export const waitingUpdate = signal<ServiceWorker | null>(null);

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const start = () => void register().catch(() => {
    // No worker (a private window that refuses one, a file the server no longer has): the
    // page works as before, only without the offline shell.
  });
  if (document.readyState === 'complete') start();
  else window.addEventListener('load', start, { once: true });
}

async function register(): Promise<void> {
  const container = navigator.serviceWorker;
  // `updateViaCache: 'none'`: the update check always asks the server, whatever caches sit between.
  const registration = await container.register('/sw.js', { scope: '/', updateViaCache: 'none' });
  // A worker that installs while another controls the page is an update; the first one is not.
  const offer = (worker: ServiceWorker | null) => {
    if (worker && container.controller) waitingUpdate.value = worker;
  };
  const follow = (worker: ServiceWorker | null) => {
    worker?.addEventListener('statechange', () => {
      if (worker.state === 'installed') offer(worker);
    });
  };
  offer(registration.waiting);
  follow(registration.installing);
  registration.addEventListener('updatefound', () => follow(registration.installing));
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void registration.update().catch(() => undefined);
  });
}

/** The person pressed Reload: the waiting version takes over, then the page reloads into it. */
export function applyUpdate(): void {
  const worker = waitingUpdate.value;
  if (!worker) return;
  navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), { once: true });
  const message: SkipWaitingMessage = { type: 'skip-waiting' };
  worker.postMessage(message);
}
