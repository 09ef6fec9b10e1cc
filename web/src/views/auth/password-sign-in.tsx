import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { Field, SubmitButton } from '../../ui/field.js';
import type { AuthAnswer } from '../../auth/auth-flow.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { startLogin } from '../../auth/opaque-client.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Username and password, one button. With OPAQUE (the default) the password never leaves the
 * browser. The direct transport is used, without asking anyone to choose, when the server has
 * OPAQUE off, when this browser cannot run it (no WebAssembly), or when the server says the
 * account has no OPAQUE record yet (`useDirectPassword`: a password set before OPAQUE records
 * were made for it); that sign-in upgrades the account, so the next one is OPAQUE.
 * Decisions: docs/2026-11-26-one-sign-in-button.md.
 */
export function PasswordSignIn(props: { opaque: boolean; direct: boolean; onAnswer: (answer: AuthAnswer) => void; onForgot?: (() => void) | undefined }) {
  const t = useT();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const direct = (): Promise<AuthAnswer> => call(api.POST('/api/auth/password/login', { body: { username, password } }));

  async function signInOpaque(): Promise<AuthAnswer> {
    let login: Awaited<ReturnType<typeof startLogin>>;
    try {
      login = await startLogin(password);
    } catch (cause) {
      if (props.direct) return direct();
      throw new ApiError({ requestId: '', status: 0, code: 'unavailable', message: t('auth.password.opaqueFailed', { cause: cause instanceof Error ? cause.message : String(cause) }) });
    }
    const started = await call(api.POST('/api/auth/opaque/login/start', { body: { username, startLoginRequest: login.request } }));
    if (started.useDirectPassword && props.direct) return direct();
    const finishLoginRequest = login.finish(started.loginResponse);
    return call(api.POST('/api/auth/opaque/login/finish', { body: { loginId: started.loginId, finishLoginRequest } }));
  }

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      props.onAnswer(props.opaque ? await signInOpaque() : await direct());
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="form" onSubmit={(event) => void submit(event)} aria-describedby={error ? 'password-sign-in-error' : undefined}>
      <div id="password-sign-in-error">
        <AuthError error={error} />
      </div>
      <Field label={t('auth.password.username')} autocomplete="username" required maxLength={128} spellcheck={false} value={username} onValue={setUsername} error={issueFor(error, 'username')} />
      <Field label={t('auth.password.password')} type="password" autocomplete="current-password" required maxLength={1024} value={password} onValue={setPassword} error={issueFor(error, 'password')} />
      <SubmitButton busy={busy}>{t('auth.password.signIn')}</SubmitButton>
      {props.onForgot && (
        <div class="auth-links">
          <button type="button" class="button-quiet" onClick={props.onForgot}>
            {t('auth.password.forgot')}
          </button>
        </div>
      )}
    </form>
  );
}
