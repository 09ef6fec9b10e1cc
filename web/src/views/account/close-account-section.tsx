import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { issueFor } from '../../api/errors.js';
import { accountClosed, forgetSession, type User } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field } from '../../ui/field.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';
import { proofFields, RecentSignInProof, type PasswordKind } from './recent-sign-in-proof.js';

/**
 * Closing the account for good (docs/2026-11-26-profiles-and-accounts.md). The page says what
 * happens to each kind of data before asking; the username typed again guards against a slip.
 */
export function CloseAccountSection(props: { user: User; passwordKind: PasswordKind }) {
  const t = useT();
  const [confirm, setConfirm] = useState('');
  const [current, setCurrent] = useState('');
  const action = useAction();
  const { route } = useLocation();

  function submit(event: Event) {
    event.preventDefault();
    void action.run(async () => {
      accountClosed.value = true;
      try {
        await call(api.POST('/api/me/close', { body: { confirmUsername: confirm.trim(), ...proofFields(props.passwordKind, current) } }));
      } catch (error) {
        accountClosed.value = false;
        throw error;
      }
      route('/');
      forgetSession();
    });
  }

  return (
    <section class="account-section" aria-labelledby="account-close">
      <h2 id="account-close">{t('account.close.title')}</h2>
      <ul class="close-account-effects">
        <li>{t('account.close.sessions')}</li>
        <li>{t('account.close.rooms')}</li>
        <li>{t('account.close.chat')}</li>
        <li>{t('account.close.media')}</li>
        <li>{t('account.close.deleted')}</li>
        <li>{t('account.close.username', { username: props.user.username })}</li>
      </ul>
      <form class="form" onSubmit={submit}>
        <ErrorNotice error={issueFor(action.error, 'confirmUsername') || issueFor(action.error, 'currentPassword') ? null : action.error} />
        <Field label={t('account.close.confirm')} autocomplete="off" required maxLength={64} value={confirm} onValue={setConfirm} error={issueFor(action.error, 'confirmUsername')} />
        <RecentSignInProof kind={props.passwordKind} value={current} onValue={setCurrent} error={issueFor(action.error, 'currentPassword')} />
        <button type="submit" class="button-danger" disabled={action.busy}>
          {t('account.close.submit')}
        </button>
      </form>
    </section>
  );
}
