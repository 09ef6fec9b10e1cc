import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { session, type User } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { issueFor } from '../../api/errors.js';
import { useAction } from '../../ui/use-action.js';

/** The display name others see in rooms. */
export function ProfileSection(props: { user: User }) {
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
      <h2 id="account-profile">Profile</h2>
      <p class="muted">
        Username: <strong>{props.user.username}</strong>
        {props.user.email && <> · Email: {props.user.email}</>}
      </p>
      <form class="form" onSubmit={submit}>
        <ErrorNotice error={action.error} />
        <Field label="Display name" hint="Rooms show it from your next action in them." autocomplete="nickname" required maxLength={64} value={displayName} onValue={setDisplayName} error={issueFor(action.error, 'displayName')} />
        <SubmitButton busy={action.busy}>Save the display name</SubmitButton>
        <p aria-live="polite" class="account-status">
          {saved ? 'Saved.' : ''}
        </p>
      </form>
    </section>
  );
}
