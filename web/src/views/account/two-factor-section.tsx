import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { issueFor } from '../../api/errors.js';
import { RecoveryCodes } from './recovery-codes.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

type Setup = { secret: string; otpauthUrl: string };

/**
 * TOTP two-factor authentication: set up (the secret as text and as an otpauth:// URI for apps
 * that take one), turn on with the first code and a recent-sign-in proof, then regenerate the
 * recovery codes or turn it off, each with a current code.
 */
export function TwoFactorSection(props: { twoFactor: Schemas['CredentialsOverview']['twoFactor']; passwordKind: PasswordKind; onChanged: () => void }) {
  const t = useT();
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
      <h2 id="account-2fa">{t('account.twoFactor.title')}</h2>
      <ErrorNotice error={action.error} />
      {codes && <RecoveryCodes codes={codes} onDone={() => setCodes(null)} />}
      {!props.twoFactor.enabled && !setup && (
        <>
          <p>{t('account.twoFactor.off')}</p>
          <button type="button" class="button-primary" onClick={begin} disabled={action.busy}>
            {t('account.twoFactor.setUp')}
          </button>
        </>
      )}
      {!props.twoFactor.enabled && setup && (
        <form class="form" onSubmit={enable}>
          <p>{t('account.twoFactor.addToApp')}</p>
          <dl class="account-secret">
            <dt>{t('account.twoFactor.secret')}</dt>
            <dd>
              <code>{setup.secret}</code>
            </dd>
            <dt>{t('account.twoFactor.link')}</dt>
            <dd>
              <code class="account-wrap">{setup.otpauthUrl}</code>
            </dd>
          </dl>
          <Field label={t('account.twoFactor.appCode')} autocomplete="one-time-code" inputMode="numeric" required maxLength={32} value={code} onValue={setCode} error={issueFor(action.error, 'code')} />
          <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
          <SubmitButton busy={action.busy}>{t('account.twoFactor.turnOn')}</SubmitButton>
          <button type="button" class="button-quiet" onClick={() => setSetup(null)}>
            {t('account.twoFactor.cancel')}
          </button>
        </form>
      )}
      {props.twoFactor.enabled && (
        <form class="form" onSubmit={(event) => event.preventDefault()}>
          <p>{t('account.twoFactor.on', { count: props.twoFactor.recoveryCodesLeft })}</p>
          <Field
            label={t('account.twoFactor.currentCode')}
            hint={t('account.twoFactor.currentCodeHint')}
            autocomplete="one-time-code"
            required
            maxLength={32}
            value={code}
            onValue={setCode}
            error={issueFor(action.error, 'code')}
          />
          <div class="account-actions">
            <button type="button" onClick={() => withCode('/api/auth/2fa/recovery-codes')} disabled={action.busy}>
              {t('account.twoFactor.newCodes')}
            </button>
            <button type="button" class="button-danger" onClick={() => withCode('/api/auth/2fa/disable')} disabled={action.busy}>
              {t('account.twoFactor.turnOff')}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}
