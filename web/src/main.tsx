import { render } from 'preact';
import { App } from './app.js';
import { startI18n } from './i18n/switch-locale.js';
import { startInstallableApp } from './pwa/index.js';
import { restoreSession } from './state/session.js';
import './styles.css';
import { startTvMode } from './tv/tv-mode.js';
import { startRemote } from './tv/remote.js';

// Before the first render, so the TV layout's type size is there from the first paint.
startTvMode();
startRemote();
void restoreSession();
// The first render waits for the visitor's language (a chunk of its own unless English), so no
// page flashes in English first.
void startI18n().finally(() => {
  render(<App />, document.getElementById('app')!);
  // The service worker and the offline / new-version notices (web/src/pwa/).
  startInstallableApp();
});
