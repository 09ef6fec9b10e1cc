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

type Details = Schemas['UserDetails'];

export function UserDetails(props: { userId?: string; params?: { userId?: string } }) {
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
    <Page title={details ? `User ${details.user.username}` : 'User'} wide>
      <p>
        <a href="/admin/users">All users</a>
      </p>
      <ErrorNotice error={loaded.error} />
      <p role="status" class="admin-status">
        {notice}
      </p>
      {details && (
        <>
          <Summary details={details} />
          <section aria-labelledby="user-actions">
            <h2 id="user-actions">Actions</h2>
            {self ? (
              <p class="muted">This is your own account: it cannot be banned or have its role changed here.</p>
            ) : details.user.state === 'banned' ? (
              <ConfirmAction
                label="Unban"
                danger={false}
                question={`Lift the ban on ${details.user.username}? They can sign in again.`}
                confirmLabel="Yes, unban"
                onConfirm={async () => {
                  await call(api.POST('/api/admin/users/{userId}/unban', { params: { path: { userId } } }));
                  changed(`${details.user.username} is no longer banned.`);
                }}
              />
            ) : (
              <ConfirmAction
                label="Ban"
                question={`Ban ${details.user.username}? Every session of theirs ends at once and they cannot sign in.`}
                confirmLabel="Yes, ban"
                onConfirm={async () => {
                  const change = await call(api.POST('/api/admin/users/{userId}/ban', { params: { path: { userId } }, body: {} }));
                  changed(`${details.user.username} is banned; ${change.revokedSessions} session${change.revokedSessions === 1 ? '' : 's'} ended.`);
                }}
              />
            )}
            {!self && me?.role === 'root' && <RoleForm userId={userId} role={details.user.role} onChanged={(role) => changed(`${details.user.username} is now ${role}.`)} />}
          </section>
        </>
      )}
    </Page>
  );
}

function Summary(props: { details: Details }) {
  const { user, credentials, twoFactor, liveSessions } = props.details;
  const methods = [
    // An older kind of password record is upgraded at its next sign-in; either way it is a password to the person.
    credentials.password ? 'password' : null,
    credentials.passkeys > 0 ? `${credentials.passkeys} passkey${credentials.passkeys === 1 ? '' : 's'}` : null,
    ...credentials.oauth2.map((instance) => `sign-in provider “${instance}”`),
  ].filter((method): method is string => method !== null);
  return (
    <dl class="admin-facts">
      <dt>Username</dt>
      <dd>{user.username}</dd>
      <dt>Display name</dt>
      <dd>{user.displayName}</dd>
      <dt>Email</dt>
      <dd>{user.email ?? '—'}</dd>
      <dt>Role</dt>
      <dd>{user.role}</dd>
      <dt>State</dt>
      <dd>{user.state === 'banned' ? <span class="badge badge-danger">banned</span> : 'active'}</dd>
      <dt>Created</dt>
      <dd>{formatTime(user.createdAt)}</dd>
      <dt>Last sign-in</dt>
      <dd>{formatTime(user.lastLoginAt)}</dd>
      <dt>Signs in with</dt>
      <dd>{methods.length > 0 ? methods.join(', ') : 'nothing yet'}</dd>
      <dt>Two-factor</dt>
      <dd>{twoFactor.enabled ? `on (${twoFactor.recoveryCodesLeft} recovery codes left)` : 'off'}</dd>
      <dt>Signed-in devices</dt>
      <dd>{liveSessions}</dd>
    </dl>
  );
}
