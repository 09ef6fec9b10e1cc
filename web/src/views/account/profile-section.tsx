import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { session, type User } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { issueFor } from '../../api/errors.js';
import { useAction } from '../../ui/use-action.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';

/** The display name others see in rooms. */
export function ProfileSection(props: { user: User }) {
  const t = useT();
  const [displayName, setDisplayName] = useState(props.user.displayName);
  const [saved, setSaved] = useState(false);
  const action = useAction();

  function submit(event: Event) {
    event.preventDefault();
    setSaved(false);
    void action.run(async () => {
      const { user } = await call(api.PATCH('/api/me', { body: { displayName: displayName.trim() } }));
      if (session.value) session.value = { ...session.value, user };
      setDisplayName(user.displayName);
      setSaved(true);
    });
  }

  return (
    <section class="account-section" aria-labelledby="account-profile">
      <h2 id="account-profile">{t('account.profile.title')}</h2>
      <p class="muted">
        <Rich
          k={props.user.email ? 'account.profile.usernameEmail' : 'account.profile.username'}
          parts={{ username: <strong>{props.user.username}</strong> }}
          values={props.user.email ? { email: props.user.email } : {}}
        />
      </p>
      <form class="form" onSubmit={submit}>
        <ErrorNotice error={action.error} />
        <Field label={t('account.profile.displayName')} hint={t('account.profile.displayNameHint')} autocomplete="nickname" required maxLength={64} value={displayName} onValue={setDisplayName} error={issueFor(action.error, 'displayName')} />
        <SubmitButton busy={action.busy}>{t('account.profile.save')}</SubmitButton>
        <p aria-live="polite" class="account-status">
          {saved ? t('account.saved') : ''}
        </p>
      </form>
    </section>
  );
}
