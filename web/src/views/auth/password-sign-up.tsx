import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { NewPasswordFields, newPasswordProblem, type NewPassword, type NewPasswordProblem } from './new-password.js';
import { startRegistration } from '../../auth/opaque-client.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Username and password signup. With OPAQUE the server only ever gets the registration record
 * the browser derives from the password; the direct transport is for servers with OPAQUE off.
 */
export function PasswordSignUp(props: { opaque: boolean; onAnswer: (answer: AuthAnswer) => void }) {
  const t = useT();
  const [username, setUsername] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [password, setPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [problem, setProblem] = useState<NewPasswordProblem>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  async function register(): Promise<AuthAnswer> {
    const named = displayName.trim() ? { displayName: displayName.trim() } : {};
    if (!props.opaque) return call(api.POST('/api/auth/password/register', { body: { username, password: password.password, ...named } }));
    const registration = await startRegistration(password.password);
    const { registrationResponse } = await call(api.POST('/api/auth/opaque/register/start', { body: { username, registrationRequest: registration.request } }));
    return call(api.POST('/api/auth/opaque/register/finish', { body: { username, registrationRecord: registration.finish(registrationResponse), ...named } }));
  }

  async function submit(event: Event) {
    event.preventDefault();
    const why = newPasswordProblem(password);
    setProblem(why);
    if (why) return;
    setBusy(true);
    setError(null);
    try {
      props.onAnswer(await register());
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <AuthError error={error} />
      <UsernameFields username={username} onUsername={setUsername} displayName={displayName} onDisplayName={setDisplayName} error={error} />
      <NewPasswordFields value={password} onValue={setPassword} problem={problem} serverError={issueFor(error, 'password')} />
      <SubmitButton busy={busy}>{t('auth.password.signUp')}</SubmitButton>
    </form>
  );
}

/** The username and the optional display name every signup form asks for. */
export function UsernameFields(props: { username: string; onUsername: (value: string) => void; displayName: string; onDisplayName: (value: string) => void; error: unknown }) {
  const t = useT();
  return (
    <>
      <Field
        label={t('auth.password.username')}
        hint={t('auth.password.usernameHint')}
        autocomplete="username"
        required
        maxLength={128}
        spellcheck={false}
        value={props.username}
        onValue={props.onUsername}
        error={issueFor(props.error, 'username')}
      />
      <Field label={t('auth.password.displayNameOptional')} hint={t('auth.password.displayNameHint')} autocomplete="nickname" maxLength={64} value={props.displayName} onValue={props.onDisplayName} error={issueFor(props.error, 'displayName')} />
    </>
  );
}
