/**
 * /account: the signed-in user's profile, avatar, password, two-factor authentication, sessions,
 * passkeys, provider identities, notification switches, and closing the account. Visitors and guests are sent to
 * sign in first.
 */
import { useEffect } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { usePublicInfo } from '../../state/public-info.js';
import { accountClosed, currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useLoad } from '../../ui/use-load.js';
import { AvatarSection } from './avatar-section.js';
import { CloseAccountSection } from './close-account-section.js';
import { NotificationsSection } from './notifications-section.js';
import { OAuth2Section } from './oauth2-section.js';
import { PasskeysSection } from './passkeys-section.js';
import { PasswordSection } from './password-section.js';
import { ProfileSection } from './profile-section.js';
import { SessionsSection } from './sessions-section.js';
import { TwoFactorSection } from './two-factor-section.js';
import { useT } from '../../i18n/use-t.js';
import './account.css';

export function Account() {
  const t = useT();
  const { route } = useLocation();
  const user = currentUser.value;
  const restoring = session.value === undefined;
  useEffect(() => {
    if (!restoring && !user) route(accountClosed.value ? '/' : '/signin?next=/account', true);
  }, [restoring, user]);
  if (!user) {
    return (
      <Page title={t('account.title')}>
        <p role="status">{restoring ? t('account.loading') : t('account.signInFirst')}</p>
      </Page>
    );
  }
  return <AccountSections key={user.id} />;
}

function AccountSections() {
  const t = useT();
  const user = currentUser.value!;
  const { info, error: infoError } = usePublicInfo();
  const credentials = useLoad(() => call(api.GET('/api/me/credentials')), []);
  const oauth2 = info?.signIn.oauth2 ?? [];
  return (
    <Page title={t('account.title')}>
      <ErrorNotice error={credentials.error ?? infoError} />
      <div class="account-grid">
        <ProfileSection user={user} />
        <AvatarSection user={user} />
        {info && credentials.data && (info.signIn.opaque || info.signIn.password) && <PasswordSection kind={credentials.data.password} info={info} onChanged={credentials.reload} />}
        {credentials.data && <TwoFactorSection twoFactor={credentials.data.twoFactor} passwordKind={credentials.data.password} onChanged={credentials.reload} />}
        <SessionsSection />
        {info?.signIn.webauthn && credentials.data && <PasskeysSection passwordKind={credentials.data.password} onChanged={credentials.reload} />}
        {credentials.data && (oauth2.length > 0 || credentials.data.oauth2.length > 0) && (
          <OAuth2Section instances={oauth2} passwordKind={credentials.data.password} onChanged={credentials.reload} />
        )}
        <NotificationsSection />
        {credentials.data && <CloseAccountSection user={user} passwordKind={credentials.data.password} />}
      </div>
    </Page>
  );
}
