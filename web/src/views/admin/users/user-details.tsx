/**
 * One account: what it signs in with, its sessions, ban and unban (asked twice), and the role
 * (offered to a root only: the server refuses everyone else, so an admin is not shown a control
 * that can only fail).
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { currentUser } from '../../../state/session.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { ConfirmAction } from '../confirm-action.js';
import { formatTime } from '../../../ui/format.js';
import { RoleForm } from './role-form.js';
import { serviceRoleInWords } from '../format.js';
import { useT } from '../../../i18n/use-t.js';

type Details = Schemas['UserDetails'];

export function UserDetails(props: { userId?: string; params?: { userId?: string } }) {
  const t = useT();
  const userId = props.params?.userId ?? props.userId ?? '';
  const loaded = useLoad(() => call(api.GET('/api/admin/users/{userId}', { params: { path: { userId } } })), [userId]);
  const [notice, setNotice] = useState('');
  const details = loaded.data;
  const me = currentUser.value;
  const self = me?.id === userId;

  const changed = (message: string): void => {
    setNotice(message);
    loaded.reload();
  };

  return (
    <Page title={details ? t('admin.users.details.title', { username: details.user.username }) : t('admin.users.details.titleLoading')} wide>
      <p>
        <a href="/admin/users">{t('admin.users.details.all')}</a>
      </p>
      <ErrorNotice error={loaded.error} />
      <p role="status" class="admin-status">
        {notice}
      </p>
      {details && (
        <>
          <Summary details={details} />
          <section aria-labelledby="user-actions">
            <h2 id="user-actions">{t('admin.users.details.actions')}</h2>
            {self ? (
              <p class="muted">{t('admin.users.details.self')}</p>
            ) : details.user.state === 'banned' ? (
              <ConfirmAction
                label={t('admin.users.details.unban')}
                danger={false}
                question={t('admin.users.details.unbanQuestion', { username: details.user.username })}
                confirmLabel={t('admin.users.details.unbanConfirm')}
                onConfirm={async () => {
                  await call(api.POST('/api/admin/users/{userId}/unban', { params: { path: { userId } } }));
                  changed(t('admin.users.details.unbanned', { username: details.user.username }));
                }}
              />
            ) : (
              <ConfirmAction
                label={t('admin.users.details.ban')}
                question={t('admin.users.details.banQuestion', { username: details.user.username })}
                confirmLabel={t('admin.users.details.banConfirm')}
                onConfirm={async () => {
                  const change = await call(api.POST('/api/admin/users/{userId}/ban', { params: { path: { userId } }, body: {} }));
                  changed(t('admin.users.details.banned', { username: details.user.username, count: change.revokedSessions }));
                }}
              />
            )}
            {!self && me?.role === 'root' && <RoleForm userId={userId} role={details.user.role} onChanged={(role) => changed(t('admin.users.details.roleChanged', { username: details.user.username, role: serviceRoleInWords(role) }))} />}
          </section>
        </>
      )}
    </Page>
  );
}

function Summary(props: { details: Details }) {
  const t = useT();
  const { user, credentials, twoFactor, liveSessions } = props.details;
  const methods = [
    // An older kind of password record is upgraded at its next sign-in; either way it is a password to the person.
    credentials.password ? t('admin.users.methods.password') : null,
    credentials.passkeys > 0 ? t('admin.users.methods.passkeys', { count: credentials.passkeys }) : null,
    ...credentials.oauth2.map((instance) => t('admin.users.methods.provider', { name: instance })),
  ].filter((method): method is string => method !== null);
  return (
    <dl class="admin-facts">
      <dt>{t('admin.users.facts.username')}</dt>
      <dd>{user.username}</dd>
      <dt>{t('admin.users.facts.displayName')}</dt>
      <dd>{user.displayName}</dd>
      <dt>{t('admin.users.facts.email')}</dt>
      <dd>{user.email ?? '—'}</dd>
      <dt>{t('admin.users.facts.role')}</dt>
      <dd>{serviceRoleInWords(user.role)}</dd>
      <dt>{t('admin.users.facts.state')}</dt>
      <dd>{user.state === 'banned' ? <span class="badge badge-danger">{t('admin.users.states.banned')}</span> : t('admin.users.states.active')}</dd>
      <dt>{t('admin.users.facts.created')}</dt>
      <dd>{formatTime(user.createdAt)}</dd>
      <dt>{t('admin.users.facts.lastSignIn')}</dt>
      <dd>{formatTime(user.lastLoginAt)}</dd>
      <dt>{t('admin.users.facts.signsInWith')}</dt>
      <dd>{methods.length > 0 ? methods.join(t('admin.list.separator')) : t('admin.users.methods.none')}</dd>
      <dt>{t('admin.users.facts.twoFactor')}</dt>
      <dd>{twoFactor.enabled ? t('admin.users.twoFactorOn', { count: twoFactor.recoveryCodesLeft }) : t('admin.users.twoFactorOff')}</dd>
      <dt>{t('admin.users.facts.devices')}</dt>
      <dd>{liveSessions}</dd>
    </dl>
  );
}
