import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { signOut } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';

/** Where the account is signed in, with a way to end any one session or all of them. */
export function SessionsSection() {
  const { route } = useLocation();
  const sessions = useLoad(() => call(api.GET('/api/auth/sessions')), []);
  const action = useAction();

  const revoke = (sessionId: string, current: boolean) =>
    void action.run(async () => {
      if (current) {
        await signOut();
        route('/signin');
        return;
      }
      await call(api.DELETE('/api/auth/sessions/{sessionId}', { params: { path: { sessionId } } }));
      sessions.reload();
    });

  const everywhere = () =>
    void action.run(async () => {
      await signOut(true);
      route('/signin');
    });

  return (
    <section class="account-section" aria-labelledby="account-sessions">
      <h2 id="account-sessions">Sessions</h2>
      <ErrorNotice error={sessions.error ?? action.error} />
      {sessions.loading && !sessions.data && <p role="status">Loading…</p>}
      {sessions.data && (
        <ul class="account-list">
          {sessions.data.sessions.map((item) => (
            <li key={item.id} class="account-item">
              <div>
                <p class="account-item-title">
                  {item.userAgent ?? 'Unknown device'} {item.current && <span class="badge">this browser</span>}
                </p>
                <p class="muted">
                  Signed in with {item.method}
                  {item.ip ? ` from ${item.ip}` : ''} · last used {formatTime(item.lastUsedAt, 'never')}
                </p>
              </div>
              <button type="button" onClick={() => revoke(item.id, item.current)} disabled={action.busy} aria-label={item.current ? 'Sign out this browser' : `Sign out the session on ${item.userAgent ?? 'an unknown device'}, last used ${formatTime(item.lastUsedAt, 'never')}`}>
                Sign out
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="button-danger" onClick={everywhere} disabled={action.busy}>
        Sign out everywhere
      </button>
    </section>
  );
}
