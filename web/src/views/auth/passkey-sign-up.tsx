import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { SubmitButton } from '../../ui/field.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { passkeysSupported, createPasskey } from '../../auth/passkey-client.js';
import { UsernameFields } from './password-sign-up.js';
import { useT } from '../../i18n/use-t.js';

/** Signup with a passkey instead of a password: the username is checked before the prompt. */
export function PasskeySignUp(props: { onAnswer: (answer: AuthAnswer) => void }) {
  const t = useT();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const named = displayName.trim() ? { displayName: displayName.trim() } : {};
      const { challengeId, options } = await call(api.POST('/api/auth/webauthn/register/options', { body: { username, ...named } }));
      const response = await createPasskey(options);
      props.onAnswer(await call(api.POST('/api/auth/webauthn/register/verify', { body: { challengeId, response } })));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  if (!passkeysSupported()) return <p class="muted">{t('auth.passkey.cannotMake')}</p>;
  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <AuthError error={error} />
      <UsernameFields username={username} onUsername={setUsername} displayName={displayName} onDisplayName={setDisplayName} error={error} />
      <SubmitButton busy={busy}>{t('auth.passkey.signUp')}</SubmitButton>
    </form>
  );
}
