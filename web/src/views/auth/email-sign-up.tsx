import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { NewPasswordFields, newPasswordProblem, type NewPassword, type NewPasswordProblem } from './new-password.js';
import { startRegistration } from '../../auth/opaque-client.js';
import { UsernameFields } from './password-sign-up.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Signup by email: the address gets a confirmation code; the code and a password then create
 * the account (the password as an OPAQUE record when the server runs OPAQUE). The link in the
 * email passes its address and code as `initial`: with a code, the form opens at the password.
 */
export function EmailSignUp(props: { opaque: boolean; onAnswer: (answer: AuthAnswer) => void; initial?: { email: string; code: string } | undefined }) {
  const t = useT();
  const [email, setEmail] = useState(props.initial?.email ?? '');
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [sent, setSent] = useState(Boolean(props.initial?.email && props.initial.code));
  const [fromLink, setFromLink] = useState(sent);
  const [code, setCode] = useState(sent ? (props.initial?.code ?? '') : '');
  const [password, setPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [problem, setProblem] = useState<NewPasswordProblem>(null);
  const { busy, error, run } = useAction();

  function start(event: Event) {
    event.preventDefault();
    const named = displayName.trim() ? { displayName: displayName.trim() } : {};
    void run(async () => {
      await call(api.POST('/api/auth/email/signup/start', { body: { email: email.trim(), username, ...named } }));
      setSent(true);
      setFromLink(false);
      setCode('');
    });
  }

  function confirm(event: Event) {
    event.preventDefault();
    const why = newPasswordProblem(password);
    setProblem(why);
    if (why) return;
    void run(async () => {
      const body = { email: email.trim(), code: code.trim() };
      if (!props.opaque) {
        props.onAnswer(await call(api.POST('/api/auth/email/signup/confirm', { body: { ...body, password: password.password } })));
        return;
      }
      const registration = await startRegistration(password.password);
      const { registrationResponse } = await call(api.POST('/api/auth/email/signup/opaque', { body: { ...body, registrationRequest: registration.request } }));
      props.onAnswer(await call(api.POST('/api/auth/email/signup/confirm', { body: { ...body, registrationRecord: registration.finish(registrationResponse) } })));
    });
  }

  if (!sent) {
    return (
      <form class="form" onSubmit={start}>
        <AuthError error={error} />
        <Field label={t('auth.email.address')} type="email" autocomplete="email" required maxLength={320} value={email} onValue={setEmail} error={issueFor(error, 'email')} />
        <UsernameFields username={username} onUsername={setUsername} displayName={displayName} onDisplayName={setDisplayName} error={error} />
        <SubmitButton busy={busy}>{t('auth.email.sendCode')}</SubmitButton>
      </form>
    );
  }
  return (
    <form class="form" onSubmit={confirm}>
      {fromLink ? (
        <p role="status">{t('auth.email.fromLink', { email: email.trim() })}</p>
      ) : (
        <p role="status">{t('auth.email.codeSent', { email: email.trim() })}</p>
      )}
      <AuthError error={error} />
      <Field label={t('auth.email.code')} autocomplete="one-time-code" required maxLength={32} spellcheck={false} value={code} onValue={setCode} error={issueFor(error, 'code')} />
      <NewPasswordFields value={password} onValue={setPassword} problem={problem} serverError={issueFor(error, 'password')} />
      <SubmitButton busy={busy}>{t('auth.email.create')}</SubmitButton>
      <button type="button" class="button-quiet" onClick={() => setSent(false)}>
        {t('auth.email.another')}
      </button>
    </form>
  );
}
