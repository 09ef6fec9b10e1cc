import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { passkeysSupported, usePasskey } from '../../auth/passkey-client.js';
import { t as translate } from '../../i18n/i18n.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Sign in with a passkey. No username: the browser offers the passkeys it holds for this site
 * (they are discoverable, as signup makes them).
 */
export function PasskeySignIn(props: { onAnswer: (answer: AuthAnswer) => void }) {
  const t = useT();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function signIn() {
    setBusy(true);
    setError(null);
    try {
      const { challengeId, options } = await call(api.POST('/api/auth/webauthn/login/options', { body: {} }));
      const elsewhere = passkeyHostProblem(options.rpId);
      if (elsewhere) throw new Error(elsewhere);
      const response = await usePasskey(options);
      props.onAnswer(await call(api.POST('/api/auth/webauthn/login/verify', { body: { challengeId, response } })));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  if (!window.isSecureContext) return <p class="muted">{t('auth.passkey.insecure', { origin: location.origin })}</p>;
  if (!passkeysSupported()) return <p class="muted">{t('auth.passkey.unsupported')}</p>;
  return (
    <div class="auth-method">
      <AuthError error={error} />
      <button type="button" class="button-primary" onClick={() => void signIn()} disabled={busy} aria-busy={busy}>
        {busy ? t('auth.passkey.waiting') : t('auth.passkey.signIn')}
      </button>
    </div>
  );
}

/**
 * Passkeys belong to the service's WebAuthn rp_id (docs/2026-11-26-same-origin-sockets.md): at
 * another address (127.0.0.1 for a service at localhost, a LAN address) the browser refuses with
 * an obscure error, so the page says it plainly first.
 */
function passkeyHostProblem(rpId: string | undefined): string | undefined {
  const host = location.hostname;
  if (!rpId || host === rpId || host.endsWith(`.${rpId}`)) return undefined;
  return translate('auth.passkey.otherHost', { rpId, host });
}
