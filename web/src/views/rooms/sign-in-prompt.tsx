/**
 * What a visitor without a session sees where rooms need one: a link to sign in that comes
 * back here (`?next=`), and, when the server admits guests, a one-field guest sign-in
 * (`onGuest` runs once the guest session exists, before the page re-renders with it).
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { signedIn } from '../../state/session.js';
import { publicInfo } from '../../state/public-info.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { useT } from '../../i18n/use-t.js';

export function signInHref(next: string): string {
  return `/signin?next=${encodeURIComponent(next)}`;
}

export function SignInPrompt(props: { next: string; why: string; allowGuest?: boolean; onGuest?: () => void }) {
  const t = useT();
  const guests = (props.allowGuest ?? true) && publicInfo.value?.guests === true;
  // Said, not just left out: someone sent a room's link expects to be able to join as a guest.
  const guestsOff = (props.allowGuest ?? true) && publicInfo.value?.guests === false;
  return (
    <div class="notice sign-in-prompt">
      <p>{props.why}</p>
      {guestsOff && <p>{t('rooms.signInPrompt.guestsOff')}</p>}
      <p>
        <a class="button-link" href={signInHref(props.next)}>
          {t('rooms.signInPrompt.signIn')}
        </a>{' '}
        <a href={`/signup?next=${encodeURIComponent(props.next)}`}>{t('rooms.signInPrompt.createAccount')}</a>
      </p>
      {guests && <GuestForm onSignedIn={props.onGuest} />}
    </div>
  );
}

/** A guest session from a display name alone: one field, one button. */
export function GuestForm(props: { onSignedIn?: (() => void) | undefined }) {
  const t = useT();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const continueAsGuest = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await call(api.POST('/api/auth/guest', { body: { displayName: name.trim() } }));
      props.onSignedIn?.();
      signedIn(answer);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="form guest-form" onSubmit={(event) => void continueAsGuest(event)} aria-label={t('rooms.signInPrompt.guestForm')}>
      <ErrorNotice error={error} />
      <Field label={t('rooms.signInPrompt.guestName')} value={name} onValue={setName} required maxLength={64} autocomplete="nickname" />
      <SubmitButton busy={busy} class="button">
        {t('rooms.signInPrompt.continueAsGuest')}
      </SubmitButton>
    </form>
  );
}
