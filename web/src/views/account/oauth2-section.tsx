import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { issueFor } from '../../api/errors.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

/**
 * Identities at the server's OAuth2 / OIDC provider instances. Binding (with a recent-sign-in
 * proof) leaves for the provider and comes back through /oauth2/callback/:instance, which
 * returns here.
 */
export function OAuth2Section(props: { instances: string[]; passwordKind: PasswordKind; onChanged: () => void }) {
  const t = useT();
  const bindings = useLoad(() => call(api.GET('/api/me/oauth2')), []);
  const [current, setCurrent] = useState('');
  const action = useAction();
  const bound = new Map((bindings.data?.bindings ?? []).map((binding) => [binding.instanceName, binding]));
  const names = [...new Set([...props.instances, ...bound.keys()])];

  const bind = (instance: string) =>
    void action.run(async () => {
      const { authorizationUrl } = await call(api.POST('/api/me/oauth2/{instance}/authorize', { params: { path: { instance } }, body: proofFields(props.passwordKind, current) }));
      window.location.assign(authorizationUrl);
    });

  const unbind = (instance: string) =>
    void action.run(async () => {
      await call(api.DELETE('/api/me/oauth2/{instance}', { params: { path: { instance } } }));
      bindings.reload();
      props.onChanged();
    });

  return (
    <section class="account-section" aria-labelledby="account-oauth2">
      <h2 id="account-oauth2">{t('account.services.title')}</h2>
      <ErrorNotice error={bindings.error ?? action.error} />
      {props.instances.some((instance) => !bound.get(instance)?.configured) && (
        <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
      )}
      {bindings.data && (
        <ul class="account-list">
          {names.map((instance) => {
            const binding = bound.get(instance);
            // Bound, but the service now trusts another provider: connecting again re-binds it there.
            const reconnect = binding !== undefined && !binding.configured && props.instances.includes(instance);
            return (
              <li key={instance} class="account-item">
                <div>
                  <p class="account-item-title">{instance}</p>
                  <p class="muted">{binding ? t(binding.configured ? 'account.services.connected' : reconnect ? 'account.services.connectedReconnect' : 'account.services.connectedRemoved', { when: formatTime(binding.createdAt, t('account.never')) }) : t('account.services.notConnected')}</p>
                </div>
                {reconnect && (
                  <button type="button" onClick={() => bind(instance)} disabled={action.busy} aria-label={t('account.services.connectAgainNamed', { instance })}>
                    {t('account.services.connectAgain')}
                  </button>
                )}
                {binding ? (
                  <button type="button" class="button-danger" onClick={() => unbind(instance)} disabled={action.busy} aria-label={t('account.services.disconnectNamed', { instance })}>
                    {t('account.services.disconnect')}
                  </button>
                ) : (
                  <button type="button" onClick={() => bind(instance)} disabled={action.busy} aria-label={t('account.services.connectNamed', { instance })}>
                    {t('account.services.connect')}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
