/**
 * Create a room (`/rooms/new`). The password field follows the server's policy (required,
 * optional, or absent when forbidden); a room that needs review says so instead of opening.
 */
import { useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { asApiError } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { loadPublicInfo, publicInfo } from '../../state/public-info.js';
import { currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { Page } from '../../ui/page.js';
import { signInHref } from './sign-in-prompt.js';
import './rooms.css';

type RoomInfo = Schemas['RoomInfo'];

export function CreateRoom() {
  const [infoError, setInfoError] = useState<unknown>(null);
  useEffect(() => void loadPublicInfo().catch(setInfoError), []);
  const [created, setCreated] = useState<RoomInfo | null>(null);
  const info = publicInfo.value;

  let body;
  if (session.value === undefined || (!info && !infoError)) body = <p aria-live="polite">Loading…</p>;
  else if (!currentUser.value)
    body = (
      <p class="notice">
        Creating a room needs an account. <a href={signInHref('/rooms/new')}>Sign in to create a room</a>.
      </p>
    );
  else if (!info) body = <ErrorNotice error={infoError} />;
  else if (!info.rooms.creationAllowed) body = <p class="notice">Creating rooms is turned off on this server.</p>;
  else if (created)
    body = (
      <div class="notice" role="status">
        <p class="notice-title">Waiting for review</p>
        <p>
          “{created.name}” was created and waits for an administrator’s review. It opens once approved; you can find it under “My rooms”.
        </p>
        <p>
          <a href="/">Back to the rooms</a>
        </p>
      </div>
    );
  else body = <CreateRoomForm policy={info.rooms} onPending={setCreated} />;
  return <Page title="Create a room">{body}</Page>;
}

function CreateRoomForm(props: { policy: Schemas['PublicInfo']['rooms']; onPending: (room: RoomInfo) => void }) {
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
      if (answer.room.status === 'active') route(`/rooms/${encodeURIComponent(answer.room.id)}`);
      else props.onPending(answer.room);
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  };

  return (
    <form class="form" onSubmit={(event) => void submit(event)}>
      <ErrorNotice error={error} />
      {props.policy.creationNeedsReview && <p class="notice">New rooms are reviewed by an administrator before they open.</p>}
      <Field label="Room name" value={name} onValue={setName} required maxLength={100} error={fieldError('name')} />
      <fieldset class="choice-group">
        <legend>Who can find it</legend>
        <label>
          <input type="radio" name="visibility" checked={visibility === 'public'} onChange={() => setVisibility('public')} /> Public: listed in the directory
        </label>
        <label>
          <input type="radio" name="visibility" checked={visibility === 'hidden'} onChange={() => setVisibility('hidden')} /> Hidden: only people with the link
        </label>
      </fieldset>
      {policy !== 'forbidden' && (
        <Field
          label={policy === 'required' ? 'Room password' : 'Room password (optional)'}
          type="password"
          autocomplete="new-password"
          value={password}
          onValue={setPassword}
          required={policy === 'required'}
          hint={policy === 'required' ? 'This server requires a password for every room.' : 'Leave empty for a room without a password.'}
          error={fieldError('password')}
        />
      )}
      <label class="check">
        <input type="checkbox" checked={requireJoinApproval} onChange={(event) => setApproval(event.currentTarget.checked)} /> New members need approval
      </label>
      <label class="check">
        <input type="checkbox" checked={waitForAllReady} onChange={(event) => setWait(event.currentTarget.checked)} /> Wait for everyone to be ready before playing
      </label>
      <SubmitButton busy={busy}>Create room</SubmitButton>
    </form>
  );
}
