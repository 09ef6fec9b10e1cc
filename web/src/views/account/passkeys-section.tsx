import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useLoad } from '../../ui/use-load.js';
import { AuthError } from '../auth/auth-error.js';
import { createPasskey, passkeysSupported } from '../../auth/passkey-client.js';
import { formatTime } from '../../ui/format.js';
import { useAction } from '../../ui/use-action.js';
import { issueFor } from '../../api/errors.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

/** The account's passkeys: add one from this device (with a recent-sign-in proof), remove one (not the last way to sign in). */
export function PasskeysSection(props: { passwordKind: PasswordKind; onChanged: () => void }) {
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
      <h2 id="account-passkeys">Passkeys</h2>
      <AuthError error={passkeys.error ?? action.error} />
      {passkeys.data && passkeys.data.passkeys.length === 0 && <p>No passkeys yet.</p>}
      {passkeys.data && passkeys.data.passkeys.length > 0 && (
        <ul class="account-list">
          {passkeys.data.passkeys.map((passkey) => (
            <li key={passkey.id} class="account-item">
              <div>
                <p class="account-item-title">{passkey.name}</p>
                <p class="muted">
                  Added {formatTime(passkey.createdAt, 'never')} · last used {formatTime(passkey.lastUsedAt, 'never')}
                </p>
              </div>
              <button type="button" class="button-danger" onClick={() => remove(passkey.id)} disabled={action.busy} aria-label={`Remove the passkey ${passkey.name}`}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      {passkeysSupported() ? (
        <form class="form" onSubmit={add}>
          <Field label="Name of the new passkey (optional)" hint="To tell your passkeys apart, e.g. “Laptop”." maxLength={64} value={name} onValue={setName} />
          <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
          <SubmitButton busy={action.busy}>Add a passkey</SubmitButton>
        </form>
      ) : (
        <p class="muted">This browser cannot make passkeys.</p>
      )}
    </section>
  );
}
