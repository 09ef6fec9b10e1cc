import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { signOut } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { t as translate } from '../../i18n/i18n.js';
import { useT } from '../../i18n/use-t.js';

/** Where the account is signed in, with a way to end any one session or all of them. */
const METHODS = ['password', 'opaque', 'webauthn', 'signup', 'guest'] as const;

/** A session's sign-in method (the server's name for it) in words. */
function methodWords(method: string): string {
  if (method.startsWith('oauth2:')) return translate('account.sessions.methods.oauth2', { instance: method.slice('oauth2:'.length) });
  const known = METHODS.find((name) => name === method);
  return known ? translate(`account.sessions.methods.${known}`) : translate('account.sessions.methods.other');
}

export function SessionsSection() {
  const t = useT();
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
      <h2 id="account-sessions">{t('account.sessions.title')}</h2>
      <ErrorNotice error={sessions.error ?? action.error} />
      {sessions.loading && !sessions.data && <p role="status">{t('account.loading')}</p>}
      {sessions.data && (
        <ul class="account-list">
          {sessions.data.sessions.map((item) => (
            <li key={item.id} class="account-item">
              <div>
                <p class="account-item-title">
                  {item.userAgent ? <span translate={false}>{item.userAgent}</span> : t('account.sessions.unknownDevice')} {item.current && <span class="badge">{t('account.sessions.thisBrowser')}</span>}
                </p>
                <p class="muted">
                  {item.ip
                    ? t('account.sessions.signedInWithFrom', { method: methodWords(item.method), ip: item.ip, lastUsed: formatTime(item.lastUsedAt, t('account.never')) })
                    : t('account.sessions.signedInWith', { method: methodWords(item.method), lastUsed: formatTime(item.lastUsedAt, t('account.never')) })}
                </p>
              </div>
              <button type="button" onClick={() => revoke(item.id, item.current)} disabled={action.busy} aria-label={item.current ? t('account.sessions.signOutThis') : t('account.sessions.signOutOther', { device: item.userAgent ?? t('account.sessions.anUnknownDevice'), lastUsed: formatTime(item.lastUsedAt, t('account.never')) })}>
                {t('account.sessions.signOut')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <button type="button" class="button-danger" onClick={everywhere} disabled={action.busy}>
        {t('account.sessions.everywhere')}
      </button>
    </section>
  );
}
