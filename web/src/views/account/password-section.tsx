import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import type { PublicInfo } from '../../state/public-info.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { SubmitButton } from '../../ui/field.js';
import { issueFor } from '../../api/errors.js';
import { NewPasswordFields, newPasswordProblem, type NewPassword, type NewPasswordProblem } from '../auth/new-password.js';
import { startRegistration } from '../../auth/opaque-client.js';
import { useAction } from '../../ui/use-action.js';
import { RecentSignInProof } from './recent-sign-in-proof.js';
import { useT } from '../../i18n/use-t.js';

/**
 * Set or change the password. An account with a direct-transport (argon2) password proves the
 * current one; any other needs a sign-in within the last 10 minutes, which the server checks.
 * The new password becomes an OPAQUE record when the server runs OPAQUE.
 */
export function PasswordSection(props: { kind: Schemas['CredentialsOverview']['password']; info: PublicInfo; onChanged: () => void }) {
  const t = useT();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState<NewPassword>({ password: '', repeat: '' });
  const [problem, setProblem] = useState<NewPasswordProblem>(null);
  const [done, setDone] = useState<string>('');
  const action = useAction();
  const needsCurrent = props.kind === 'argon2';
  // The OPAQUE start needs a recent sign-in even for argon2 accounts; the current password is the
  // easier proof for them, so they use the direct transport when it is on.
  const opaque = props.info.signIn.opaque && !(needsCurrent && props.info.signIn.password);

  function submit(event: Event) {
    event.preventDefault();
    const why = newPasswordProblem(password);
    setProblem(why);
    setDone('');
    if (why) return;
    void action.run(async () => {
      const proof = needsCurrent ? { currentPassword: current } : {};
      let answer: { revokedSessions: number };
      if (opaque) {
        const registration = await startRegistration(password.password);
        const { registrationResponse } = await call(api.POST('/api/me/password/opaque', { body: { registrationRequest: registration.request } }));
        answer = await call(api.POST('/api/me/password', { body: { ...proof, registrationRecord: registration.finish(registrationResponse) } }));
      } else {
        answer = await call(api.POST('/api/me/password', { body: { ...proof, password: password.password } }));
      }
      setCurrent('');
      setPassword({ password: '', repeat: '' });
      setDone(t('account.password.changed', { count: answer.revokedSessions }));
      props.onChanged();
    });
  }

  return (
    <section class="account-section" aria-labelledby="account-password">
      <h2 id="account-password">{props.kind ? t('account.password.change') : t('account.password.set')}</h2>
      <form class="form" onSubmit={submit}>
        <ErrorNotice error={action.error} />
        <RecentSignInProof kind={props.kind} required value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
        <NewPasswordFields label={t('account.password.newPassword')} value={password} onValue={setPassword} problem={problem} serverError={issueFor(action.error, 'password')} />
        <SubmitButton busy={action.busy}>{props.kind ? t('account.password.change') : t('account.password.setSubmit')}</SubmitButton>
        <p aria-live="polite" class="account-status">
          {done}
        </p>
      </form>
    </section>
  );
}
