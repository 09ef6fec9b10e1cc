import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { issueFor } from '../../api/errors.js';
import { RecoveryCodes } from './recovery-codes.js';
import { useAction } from '../../ui/use-action.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

type Setup = { secret: string; otpauthUrl: string };

/**
 * TOTP two-factor authentication: set up (the secret as text and as an otpauth:// URI for apps
 * that take one), turn on with the first code and a recent-sign-in proof, then regenerate the
 * recovery codes or turn it off, each with a current code.
 */
export function TwoFactorSection(props: { twoFactor: Schemas['CredentialsOverview']['twoFactor']; passwordKind: PasswordKind; onChanged: () => void }) {
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [current, setCurrent] = useState('');
  const action = useAction();

  const begin = () =>
    void action.run(async () => {
      setSetup(await call(api.POST('/api/auth/2fa/totp/setup')));
      setCode('');
    });

  function enable(event: Event) {
    event.preventDefault();
    void action.run(async () => {
      const answer = await call(api.POST('/api/auth/2fa/totp/enable', { body: { code: code.trim(), ...proofFields(props.passwordKind, current) } }));
      setSetup(null);
      setCode('');
      setCurrent('');
      setCodes(answer.recoveryCodes);
      props.onChanged();
    });
  }

  function withCode(path: '/api/auth/2fa/recovery-codes' | '/api/auth/2fa/disable') {
    void action.run(async () => {
      if (path === '/api/auth/2fa/recovery-codes') setCodes((await call(api.POST(path, { body: { code: code.trim() } }))).recoveryCodes);
      else await call(api.POST(path, { body: { code: code.trim() } }));
      setCode('');
      props.onChanged();
    });
  }

  return (
    <section class="account-section" aria-labelledby="account-2fa">
      <h2 id="account-2fa">Two-factor authentication</h2>
      <ErrorNotice error={action.error} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {!props.twoFactor.enabled && !setup && (
        <>
          <p>Off. With it on, signing in also asks for a code from an authenticator app.</p>
          <button type="button" class="button-primary" onClick={begin} disabled={action.busy}>
            Set up two-factor authentication
          </button>
        </>
      )}
      {!props.twoFactor.enabled && setup && (
        <form class="form" onSubmit={enable}>
          <p>Add this account to your authenticator app with the secret key (or the link, if your app takes one), then enter the code it shows.</p>
          <dl class="account-secret">
            <dt>Secret key</dt>
            <dd>
              <code>{setup.secret}</code>
            </dd>
            <dt>Setup link</dt>
            <dd>
              <code class="account-wrap">{setup.otpauthUrl}</code>
            </dd>
          </dl>
          <Field label="Code from the app" autocomplete="one-time-code" inputMode="numeric" required maxLength={32} value={code} onValue={setCode} error={issueFor(action.error, 'code')} />
          <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
          <SubmitButton busy={action.busy}>Turn on two-factor authentication</SubmitButton>
          <button type="button" class="button-quiet" onClick={() => setSetup(null)}>
            Cancel
          </button>
        </form>
      )}
      {props.twoFactor.enabled && (
        <form class="form" onSubmit={(event) => event.preventDefault()}>
          <p>
            On. {props.twoFactor.recoveryCodesLeft} recovery code{props.twoFactor.recoveryCodesLeft === 1 ? '' : 's'} left.
          </p>
          <Field
            label="Current code"
            hint="A code from your app (or a recovery code) to confirm the change."
            autocomplete="one-time-code"
            required
            maxLength={32}
            value={code}
            onValue={setCode}
            error={issueFor(action.error, 'code')}
          />
          <div class="account-actions">
            <button type="button" onClick={() => withCode('/api/auth/2fa/recovery-codes')} disabled={action.busy}>
              New recovery codes
            </button>
            <button type="button" class="button-danger" onClick={() => withCode('/api/auth/2fa/disable')} disabled={action.busy}>
              Turn off two-factor authentication
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
