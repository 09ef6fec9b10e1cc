import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { NewPasswordFields, newPasswordProblem, type NewPassword } from './new-password.js';
import { startRegistration } from '../../auth/opaque-client.js';

/**
 * "Forgot password?": a code is emailed to the account's address, then the code and a new
 * password set it (as an OPAQUE record when the server runs OPAQUE) and sign out every session.
 * The link in the email passes its address (and code) as `initial`: with a code, the form opens
 * at the new password.
 */
export function PasswordReset(props: { opaque: boolean; onDone: () => void; onCancel: () => void; initial?: { email: string; code: string } | undefined }) {
  const [email, setEmail] = useState(props.initial?.email ?? '');
  const [sent, setSent] = useState(Boolean(props.initial?.email && props.initial.code));
  const [fromLink, setFromLink] = useState(sent);
  const [code, setCode] = useState(sent ? (props.initial?.code ?? '') : '');
  const [password, setPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [problem, setProblem] = useState<string | null>(null);
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
      <h2 id="reset-title">Reset your password</h2>
      <AuthError error={error} />
      {!sent ? (
        <form class="form" onSubmit={sendCode}>
          <p>Enter the email address of your account. We send a code to it if it has an account.</p>
          <Field label="Email address" type="email" autocomplete="email" required maxLength={320} value={email} onValue={setEmail} error={issueFor(error, 'email')} />
          <SubmitButton busy={busy}>Send the code</SubmitButton>
        </form>
      ) : (
        <form class="form" onSubmit={setNewPassword}>
          {fromLink ? (
            <p role="status">Choose a new password for the account of {email.trim()}. The code from your email is filled in. Every session of the account is signed out.</p>
          ) : (
            <p role="status">If {email.trim()} belongs to an account, a code is on its way. Enter it with your new password. Every session of the account is signed out.</p>
          )}
          <Field label="Code from the email" autocomplete="one-time-code" required maxLength={32} spellcheck={false} value={code} onValue={setCode} error={issueFor(error, 'code')} />
          <NewPasswordFields label="New password" value={password} onValue={setPassword} problem={problem} serverError={issueFor(error, 'password')} />
          <SubmitButton busy={busy}>Set the new password</SubmitButton>
        </form>
      )}
      <button type="button" class="button-quiet" onClick={props.onCancel}>
        Back to sign in
      </button>
    </section>
  );
}
