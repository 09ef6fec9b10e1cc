/**
 * The installable app (docs/2026-11-29-installable-app.md): the service worker, the network's
 * state and the notices about both. Started once the first page is drawn, so the notices speak
 * the page's language from their first word.
 */
import { render } from 'preact';
import { AppNotices } from './notices.js';
import { followOnline } from './online.js';
import { registerServiceWorker } from './register.js';

export function startInstallableApp(): void {
  followOnline();
  const host = document.getElementById('app-notices');
  if (host) render(<AppNotices />, host);
  registerServiceWorker();
}
