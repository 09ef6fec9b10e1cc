import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { AuthAnswer } from './auth-flow.js';
import { AuthError } from './auth-error.js';
import { passkeysSupported, usePasskey } from './passkey-client.js';

/**
 * Sign in with a passkey. No username: the browser offers the passkeys it holds for this site
 * (they are discoverable, as signup makes them).
 */
export function PasskeySignIn(props: { onAnswer: (answer: AuthAnswer) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      const { challengeId, options } = await call(api.POST('/api/auth/webauthn/login/options', { body: {} }));
      const response = await usePasskey(options);
      props.onAnswer(await call(api.POST('/api/auth/webauthn/login/verify', { body: { challengeId, response } })));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  if (!passkeysSupported()) return <p class="muted">This browser cannot use passkeys.</p>;
  return (
    <div class="auth-method">
      <AuthError error={error} />
      <button type="button" class="button-primary" onClick={() => void signIn()} disabled={busy} aria-busy={busy}>
        {busy ? 'Waiting for the passkey…' : 'Sign in with a passkey'}
      </button>
    </div>
  );
}
