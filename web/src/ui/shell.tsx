import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { currentUser, displayName, isAdmin, session, signOut } from '../state/session.js';
import { nextForHere, withNext } from '../auth/next-path.js';
import { Avatar } from './avatar.js';
import { NotificationBell } from './notification-bell.js';
import { LanguageSwitch } from './language-switch.js';
import { useT } from '../i18n/use-t.js';

/** Header, navigation and the main landmark around every page. */
export function Shell(props: { children: ComponentChildren }) {
  const t = useT();
  const { route, path } = useLocation();
  const current = session.value;
  // Signing in from any page comes back to it (a room's address, say), not to the home page.
  const next = nextForHere(path);
  return (
    <>
      <a class="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      <header class="site-header">
        <a class="brand" href="/" aria-label={t('shell.home')}>
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M12 9v14l11-7z" fill="var(--surface)" />
          </svg>
          <span>svc</span>
        </a>
        <nav aria-label={t('shell.mainNav')}>
          <ul class="nav-list">
            <li>
              <a href="/rooms">{t('shell.rooms')}</a>
            </li>
            {isAdmin.value && (
              <li>
                <a href="/admin">{t('shell.admin')}</a>
              </li>
            )}
          </ul>
        </nav>
        <div class="account-area">
          {current === undefined ? null : current ? (
            <>
              {currentUser.value && <NotificationBell key={currentUser.value.id} />}
              {currentUser.value ? (
                <a href="/account" class="account-link">
                  <Avatar userId={currentUser.value.id} name={displayName.value} />
                  <span class="account-name">{displayName.value}</span>
                </a>
              ) : (
                <span class="account-link">{t('shell.guestName', { name: displayName.value })}</span>
              )}
              <button type="button" class="button-quiet" onClick={() => void signOut().then(() => route('/'))}>
                {t('shell.signOut')}
              </button>
            </>
          ) : (
            <>
              <a href={withNext('/signin', next)}>{t('shell.signIn')}</a>
              <a href={withNext('/signup', next)} class="button-link">
                {t('shell.signUp')}
              </a>
            </>
          )}
          <LanguageSwitch />
        </div>
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}
