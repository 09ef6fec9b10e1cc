/**
 * The form that creates a room. In full (`/rooms/new`) it shows every option; compact (the home
 * page's "Start a room") it asks only for a name and keeps the rest behind "More options", with
 * the same defaults. The password field follows the server's policy (required: always shown;
 * optional; absent when forbidden). An active room opens at once with its link ready to share
 * (started-room.ts); a room that needs review is handed to `onPending`.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { asApiError } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { noteStartedRoom } from './started-room.js';
import { useT } from '../../i18n/use-t.js';

export type RoomInfo = Schemas['RoomInfo'];

export function CreateRoomForm(props: { policy: Schemas['PublicInfo']['rooms']; onPending: (room: RoomInfo) => void; compact?: boolean }) {
  const t = useT();
  const { route } = useLocation();
  const [name, setName] = useState('');
  const [visibility, setVisibility] = useState<'public' | 'hidden'>('public');
  const [password, setPassword] = useState('');
  const [requireJoinApproval, setApproval] = useState(false);
  const [waitForAllReady, setWait] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const policy = props.policy.passwordPolicy;
  const fieldError = (key: string) => (error ? asApiError(error).issueFor(key) : undefined);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = await call(
        api.POST('/api/rooms', {
          body: { name: name.trim(), visibility, requireJoinApproval, waitForAllReady, ...(policy !== 'forbidden' && password ? { password } : {}) },
        }),
      );
      if (answer.room.status === 'active') {
        await noteStartedRoom(answer.room.id);
        route(`/rooms/${encodeURIComponent(answer.room.id)}`);
      } else props.onPending(answer.room);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  const passwordField = policy !== 'forbidden' && (
    <Field
      label={policy === 'required' ? t('rooms.create.password') : t('rooms.create.passwordOptional')}
      type="password"
      autocomplete="new-password"
      value={password}
      onValue={setPassword}
      required={policy === 'required'}
      hint={policy === 'required' ? t('rooms.create.passwordRequiredHint') : t('rooms.create.passwordOptionalHint')}
      error={fieldError('password')}
    />
  );
  const options = (
    <>
      <fieldset class="choice-group">
        <legend>{t('rooms.create.whoCanFind')}</legend>
        <label>
          <input type="radio" name="visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> {t('rooms.create.public')}
        </label>
        <label>
          <input type="radio" name="visibility" checked={visibility === 'hidden'} onChange={() => setVisibility('hidden')} /> {t('rooms.create.hidden')}
        </label>
      </fieldset>
      {policy === 'optional' && passwordField}
      <label class="check">
        <input type="checkbox" checked={requireJoinApproval} onChange={(event) => setApproval(event.currentTarget.checked)} /> {t('rooms.create.approval')}
      </label>
      <label class="check">
        <input type="checkbox" checked={waitForAllReady} onChange={(event) => setWait(event.currentTarget.checked)} /> {t('rooms.create.waitForAll')}
      </label>
    </>
  );

  return (
    <form class={props.compact ? 'form start-room' : 'form'} onSubmit={(event) => void submit(event)}>
      <ErrorNotice error={error} />
      {props.policy.creationNeedsReview && <p class="notice">{t('rooms.create.reviewed')}</p>}
      <Field label={t('rooms.create.name')} value={name} onValue={setName} required maxLength={100} error={fieldError('name')} />
      {policy === 'required' && passwordField}
      {props.compact ? (
        <details class="more-options" open={error !== null && fieldError('password') !== undefined}>
          <summary>{t('rooms.create.moreOptions')}</summary>
          <div class="form">{options}</div>
        </details>
      ) : (
        options
      )}
      <SubmitButton busy={busy}>{props.compact ? t('rooms.create.start') : t('rooms.create.submit')}</SubmitButton>
    </form>
  );
}

/** What follows creating a room that an administrator must approve first. */
export function PendingReview(props: { room: RoomInfo }) {
  const t = useT();
  return (
    <div class="notice" role="status">
      <p class="notice-title">{t('rooms.create.pendingTitle')}</p>
      <p>{t('rooms.create.pending', { name: props.room.name })}</p>
    </div>
  );
}
