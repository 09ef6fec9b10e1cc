import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { useT } from '../../i18n/use-t.js';

/** A guest session under a display name, for rooms that admit guests; no account is made. */
export function GuestForm(props: { onAnswer: (answer: AuthAnswer) => void }) {
  const t = useT();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onAnswer(await call(api.POST('/api/auth/guest', { body: { displayName: name.trim() } })));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <AuthError error={error} />
      <Field label={t('auth.guest.displayName')} hint={t('auth.guest.hint')} autocomplete="nickname" required maxLength={64} value={name} onValue={setName} error={issueFor(error, 'displayName')} />
      <SubmitButton busy={busy} class="">
        {t('auth.guest.submit')}
      </SubmitButton>
    </form>
  );
}
