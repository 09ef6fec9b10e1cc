import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { useT } from '../../i18n/use-t.js';

/**
 * The second step of a sign-in that answered `second_factor_required`: a code from the
 * authenticator app, or one of the recovery codes. A wrong code leaves the challenge valid,
 * so the person simply tries again.
 */
export function SecondFactor(props: { challenge: Schemas['SecondFactorRequired']; onSignedIn: (answer: Schemas['SignedIn']) => void; onCancel: () => void }) {
  const t = useT();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const canRecover = props.challenge.methods.includes('recovery_code');

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onSignedIn(await call(api.POST('/api/auth/2fa/verify', { body: { challengeToken: props.challenge.challengeToken, code: code.trim() } })));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="form auth-panel" onSubmit={(event) => void submit(event)} aria-labelledby="second-factor-title">
      <h2 id="second-factor-title">{t('auth.secondFactor.title')}</h2>
      <p>{recovery ? t('auth.secondFactor.recoveryIntro') : t('auth.secondFactor.codeIntro')}</p>
      <AuthError error={error} />
      {recovery ? (
        <Field label={t('auth.secondFactor.recoveryCode')} value={code} onValue={setCode} autocomplete="one-time-code" required maxLength={32} spellcheck={false} error={issueFor(error, 'code')} />
      ) : (
        <Field label={t('auth.secondFactor.code')} value={code} onValue={setCode} autocomplete="one-time-code" inputMode="numeric" required maxLength={32} error={issueFor(error, 'code')} />
      )}
      <SubmitButton busy={busy}>{t('auth.secondFactor.verify')}</SubmitButton>
      <div class="auth-links">
        {canRecover && (
          <button
            type="button"
            class="button-quiet"
            onClick={() => {
              setRecovery(!recovery);
              setCode('');
              setError(null);
            }}
          >
            {recovery ? t('auth.secondFactor.useApp') : t('auth.secondFactor.useRecovery')}
          </button>
        )}
        <button type="button" class="button-quiet" onClick={props.onCancel}>
          {t('auth.secondFactor.startOver')}
        </button>
      </div>
    </form>
  );
}

