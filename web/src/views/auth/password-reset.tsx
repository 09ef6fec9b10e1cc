import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { NewPasswordFields, newPasswordProblem, type NewPassword, type NewPasswordProblem } from './new-password.js';
import { startRegistration } from '../../auth/opaque-client.js';
import { useT } from '../../i18n/use-t.js';

/**
 * "Forgot password?": a code is emailed to the account's address, then the code and a new
 * password set it (as an OPAQUE record when the server runs OPAQUE) and sign out every session.
 * The link in the email passes its address (and code) as `initial`: with a code, the form opens
 * at the new password.
 */
export function PasswordReset(props: { opaque: boolean; onDone: () => void; onCancel: () => void; initial?: { email: string; code: string } | undefined }) {
  const t = useT();
  const [email, setEmail] = useState(props.initial?.email ?? '');
  const [sent, setSent] = useState(Boolean(props.initial?.email && props.initial.code));
  const [fromLink, setFromLink] = useState(sent);
  const [code, setCode] = useState(sent ? (props.initial?.code ?? '') : '');
  const [password, setPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [problem, setProblem] = useState<NewPasswordProblem>(null);
  const { busy, error, run } = useAction();

  function sendCode(event: Event) {
    event.preventDefault();
    void run(async () => {
      await call(api.POST('/api/auth/password/reset/start', { body: { email: email.trim() } }));
      setSent(true);
      setFromLink(false);
      setCode('');
    });
  }

  function setNewPassword(event: Event) {
    event.preventDefault();
    const why = newPasswordProblem(password);
    setProblem(why);
    if (why) return;
    void run(async () => {
      const body = { email: email.trim(), code: code.trim() };
      if (props.opaque) {
        const registration = await startRegistration(password.password);
        const { registrationResponse } = await call(api.POST('/api/auth/password/reset/opaque', { body: { ...body, registrationRequest: registration.request } }));
        await call(api.POST('/api/auth/password/reset/finish', { body: { ...body, registrationRecord: registration.finish(registrationResponse) } }));
      } else {
        await call(api.POST('/api/auth/password/reset/finish', { body: { ...body, password: password.password } }));
      }
      props.onDone();
    });
  }

  return (
    <section class="auth-panel" aria-labelledby="reset-title">
      <h2 id="reset-title">{t('auth.reset.title')}</h2>
      <AuthError error={error} />
      {!sent ? (
        <form class="form" onSubmit={sendCode}>
          <p>{t('auth.reset.intro')}</p>
          <Field label={t('auth.reset.address')} type="email" autocomplete="email" required maxLength={320} value={email} onValue={setEmail} error={issueFor(error, 'email')} />
          <SubmitButton busy={busy}>{t('auth.reset.send')}</SubmitButton>
        </form>
      ) : (
        <form class="form" onSubmit={setNewPassword}>
          {fromLink ? (
            <p role="status">{t('auth.reset.fromLink', { email: email.trim() })}</p>
          ) : (
            <p role="status">{t('auth.reset.codeSent', { email: email.trim() })}</p>
          )}
          <Field label={t('auth.reset.code')} autocomplete="one-time-code" required maxLength={32} spellcheck={false} value={code} onValue={setCode} error={issueFor(error, 'code')} />
          <NewPasswordFields label={t('auth.reset.newPassword')} value={password} onValue={setPassword} problem={problem} serverError={issueFor(error, 'password')} />
          <SubmitButton busy={busy}>{t('auth.reset.submit')}</SubmitButton>
        </form>
      )}
      <button type="button" class="button-quiet" onClick={props.onCancel}>
        {t('auth.reset.back')}
      </button>
    </section>
  );
}
