/**
 * The installable app's two notices, at the foot of every page: "you are offline" (while the
 * browser says so; the shell still opens from the service worker) and "a new version is ready"
 * with Reload (register.ts). Each sits in a status region that is always there, so a screen
 * reader announces the words when they appear.
 */
import { useT } from '../i18n/use-t.js';
import { online } from './online.js';
import { applyUpdate, waitingUpdate } from './register.js';
import './notices.css';

export function AppNotices() {
  const t = useT();
  return (
    <div class="app-notices">
      <div role="status">
        {!online.value && (
          <p class="notice app-notice">
            <strong>{t('pwa.offline.title')}</strong> {t('pwa.offline.body')}
          </p>
        )}
      </div>
      <div role="status">
        {waitingUpdate.value && (
          <div class="notice app-notice">
            <p>{t('pwa.update.ready')}</p>
            <button type="button" class="button-primary" onClick={applyUpdate}>
              {t('pwa.update.reload')}
            </button>
            <button type="button" class="button-quiet" onClick={() => (waitingUpdate.value = null)}>
              {t('pwa.update.later')}
            </button>
          </div>
        )}
      </div>
    </div>
  );
}
