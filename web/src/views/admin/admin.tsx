/**
 * The administration area (`/admin` and `/admin/*`): a gate on the session's service role, the
 * section navigation, and a nested router over the rest of the path (preact-iso hands a
 * `/admin/*` route's remainder to the inner `Router`; `/admin` itself arrives with an empty rest,
 * which the inner `/` route matches).
 */
import { ErrorBoundary, Route, Router, useLocation } from 'preact-iso';
import { Page } from '../../ui/page.js';
import { isAdmin, session } from '../../state/session.js';
import { AdminNav } from './admin-nav.js';
import { Overview } from './overview.js';
import { UsersList } from './users/users-list.js';
import { UserDetails } from './users/user-details.js';
import { RoomsList } from './rooms/rooms-list.js';
import { RoomDetails } from './rooms/room-details.js';
import { ReviewsList } from './reviews/reviews-list.js';
import { ReviewDetails } from './reviews/review-details.js';
import { SettingsPage } from './settings/settings-page.js';
import { SettingDetails } from './settings/setting-details.js';
import { NotFound } from '../not-found.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
import './admin.css';

export function Admin() {
  const t = useT();
  const { url } = useLocation();
  const current = session.value;
  // A restored session knows its user a moment after its tokens (/api/me follows the refresh).
  if (current === undefined || (current && !current.user && !current.guest)) {
    return (
      <Page title={t('admin.title')}>
        <p role="status">{t('admin.gate.checking')}</p>
      </Page>
    );
  }
  if (current === null || !current.user) {
    return (
      <Page title={t('admin.title')}>
        <p class="notice">
          <Rich k="admin.gate.signInNeeded" parts={{ signIn: <a href={`/signin?next=${encodeURIComponent(url)}`}>{t('admin.gate.signIn')}</a> }} />
        </p>
      </Page>
    );
  }
  if (!isAdmin.value) {
    return (
      <Page title={t('admin.title')}>
        <p class="notice">
          <Rich k="admin.gate.notAdmin" parts={{ back: <a href="/rooms">{t('admin.gate.back')}</a> }} values={{ username: current.user.username }} />
        </p>
      </Page>
    );
  }
  return (
    <div class="admin">
      <AdminNav />
      <ErrorBoundary>
        <Router>
          <Route path="/" component={Overview} />
          <Route path="/users" component={UsersList} />
          <Route path="/users/:userId" component={UserDetails} />
          <Route path="/rooms" component={RoomsList} />
          <Route path="/rooms/:roomId" component={RoomDetails} />
          <Route path="/reviews" component={ReviewsList} />
          <Route path="/reviews/:reviewId" component={ReviewDetails} />
          <Route path="/settings" component={SettingsPage} />
          <Route path="/settings/:key" component={SettingDetails} />
          <Route default component={NotFound} />
        </Router>
      </ErrorBoundary>
    </div>
  );
}
