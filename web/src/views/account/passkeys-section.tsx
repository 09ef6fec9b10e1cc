import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useLoad } from '../../ui/use-load.js';
import { AuthError } from '../auth/auth-error.js';
import { createPasskey, passkeysSupported } from '../../auth/passkey-client.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { issueFor } from '../../api/errors.js';
import { useT } from '../../i18n/use-t.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

/** The account's passkeys: add one from this device (with a recent-sign-in proof), remove one (not the last way to sign in). */
export function PasskeysSection(props: { passwordKind: PasswordKind; onChanged: () => void }) {
  const t = useT();
  const passkeys = useLoad(() => call(api.GET('/api/me/passkeys')), []);
  const [name, setName] = useState('');
  const [current, setCurrent] = useState('');
  const action = useAction();

  function add(event: Event) {
    event.preventDefault();
    void action.run(async () => {
      const { challengeId, options } = await call(api.POST('/api/me/passkeys/options', { body: proofFields(props.passwordKind, current) }));
      const response = await createPasskey(options);
      await call(api.POST('/api/me/passkeys', { body: { challengeId, response, ...(name.trim() ? { name: name.trim() } : {}) } }));
      setName('');
      setCurrent('');
      passkeys.reload();
      props.onChanged();
    });
  }

  const remove = (id: string) =>
    void action.run(async () => {
      await call(api.DELETE('/api/me/passkeys/{id}', { params: { path: { id } } }));
      passkeys.reload();
      props.onChanged();
    });

  return (
    <section class="account-section" aria-labelledby="account-passkeys">
      <h2 id="account-passkeys">{t('account.passkeys.title')}</h2>
      <AuthError error={passkeys.error ?? action.error} />
      {passkeys.data && passkeys.data.passkeys.length === 0 && <p>{t('account.passkeys.none')}</p>}
      {passkeys.data && passkeys.data.passkeys.length > 0 && (
        <ul class="account-list">
          {passkeys.data.passkeys.map((passkey) => (
            <li key={passkey.id} class="account-item">
              <div>
                <p class="account-item-title">{passkey.name}</p>
                <p class="muted">
                  {t('account.passkeys.used', { added: formatTime(passkey.createdAt, t('account.never')), lastUsed: formatTime(passkey.lastUsedAt, t('account.never')) })}
                </p>
              </div>
              <button type="button" class="button-danger" onClick={() => remove(passkey.id)} disabled={action.busy} aria-label={t('account.passkeys.removeNamed', { name: passkey.name })}>
                {t('account.passkeys.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form class="form" onSubmit={add}>
          <Field label={t('account.passkeys.name')} hint={t('account.passkeys.nameHint')} maxLength={64} value={name} onValue={setName} />
          <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
          <SubmitButton busy={action.busy}>{t('account.passkeys.add')}</SubmitButton>
        </form>
      ) : (
        <p class="muted">{t('account.passkeys.cannotMake')}</p>
      )}
    </section>
  );
}
