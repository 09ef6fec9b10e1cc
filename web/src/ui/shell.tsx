import type { ComponentChildren } from 'preact';
import { useLocation } from 'preact-iso';
import { currentUser, displayName, isAdmin, session, signOut } from '../state/session.js';
import { nextForHere, withNext } from '../auth/next-path.js';
import { Avatar } from './avatar.js';
import { NotificationBell } from './notification-bell.js';

/** Header, navigation and the main landmark around every page. */
export function Shell(props: { children: ComponentChildren }) {
  const { route, path } = useLocation();
  const current = session.value;
  // Signing in from any page comes back to it (a room's address, say), not to the home page.
  const next = nextForHere(path);
  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="site-header">
        <a class="brand" href="/" aria-label="svc home">
          <svg viewBox="0 0 32 32" width="28" height="28" aria-hidden="true">
            <rect width="32" height="32" rx="7" fill="currentColor" />
            <path d="M12 9v14l11-7z" fill="var(--surface)" />
          </svg>
          <span>svc</span>
        </a>
        <nav aria-label="Main">
          <ul class="nav-list">
            <li>
              <a href="/rooms">Rooms</a>
            </li>
            {isAdmin.value && (
              <li>
                <a href="/admin">Admin</a>
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
                <span class="account-link">{displayName.value} (guest)</span>
              )}
              <button type="button" class="button-quiet" onClick={() => void signOut().then(() => route('/'))}>
                Sign out
              </button>
            </>
          ) : (
            <>
              <a href={withNext('/signin', next)}>Sign in</a>
              <a href={withNext('/signup', next)} class="button-link">
                Sign up
              </a>
            </>
          )}
        </div>
      </header>
      <main id="main">{props.children}</main>
    </>
  );
}
