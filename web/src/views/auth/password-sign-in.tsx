import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { Field, SubmitButton } from '../../ui/field.js';
import type { AuthAnswer } from './auth-flow.js';
import { AuthError } from './auth-error.js';
import { issueFor } from '../../api/errors.js';
import { startLogin } from './opaque-client.js';

/**
 * Username and password. With OPAQUE (the default) the password never leaves the browser. The
 * direct transport is used when the server has OPAQUE off, and offered as a fallback when the
 * server allows it: for a browser that cannot load OPAQUE (no WebAssembly; the button is then
 * made prominent), or an account whose password was set by a client without OPAQUE.
 */
export function PasswordSignIn(props: { opaque: boolean; direct: boolean; onAnswer: (answer: AuthAnswer) => void; onForgot?: (() => void) | undefined }) {
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [opaqueBroken, setOpaqueBroken] = useState(false);
  const [useDirect, setUseDirect] = useState(!props.opaque);

  async function signInOpaque(): Promise<AuthAnswer> {
    let login: Awaited<ReturnType<typeof startLogin>>;
    try {
      login = await startLogin(password);
    } catch (cause) {
      setOpaqueBroken(true);
      throw new ApiError({ requestId: '', status: 0, code: 'unavailable', message: `this browser could not run the secure password protocol (${cause instanceof Error ? cause.message : String(cause)})` });
    }
    const started = await call(api.POST('/api/auth/opaque/login/start', { body: { username, startLoginRequest: login.request } }));
    const finishLoginRequest = login.finish(started.loginResponse);
    return call(api.POST('/api/auth/opaque/login/finish', { body: { loginId: started.loginId, finishLoginRequest } }));
  }

  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = useDirect ? await call(api.POST('/api/auth/password/login', { body: { username, password } })) : await signInOpaque();
      props.onAnswer(answer);
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
      <Field label="Username" autocomplete="username" required maxLength={128} spellcheck={false} value={username} onValue={setUsername} error={issueFor(error, 'username')} />
      <Field label="Password" type="password" autocomplete="current-password" required maxLength={1024} value={password} onValue={setPassword} error={issueFor(error, 'password')} />
      <SubmitButton busy={busy}>Sign in</SubmitButton>
      <div class="auth-links">
        {props.onForgot && (
          <button type="button" class="button-quiet" onClick={props.onForgot}>
            Forgot password?
          </button>
        )}
        {props.opaque && props.direct && !useDirect && (
          <button
            type="button"
            class={opaqueBroken ? '' : 'button-quiet'}
            onClick={() => {
              setUseDirect(true);
              setError(null);
            }}
          >
            My client cannot run OPAQUE: send the password directly
          </button>
        )}
        {props.opaque && useDirect && (
          <button type="button" class="button-quiet" onClick={() => setUseDirect(false)}>
            Keep the password in this browser (OPAQUE)
          </button>
        )}
      </div>
      {useDirect && props.opaque && <p class="muted">The password goes to the server over the encrypted connection instead of staying in this browser.</p>}
    </form>
  );
}
