/**
 * A room seen from outside: its preview, and joining (with the password when it has one), or
 * why one cannot: a join request waiting, a ban, a room under review or rejected. A refused
 * join shows the server's message with the next step (join-problem.tsx).
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { issueFor } from '../../api/errors.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Field, SubmitButton } from '../../ui/field.js';
import { session } from '../../state/session.js';
import { Page } from '../../ui/page.js';
import { joinProblem } from './join-problem.js';
import { ShareLink } from './share-link.js';

/**
 * Rooms whose page a person just continued on as a guest: their name was the one step, so the
 * room is joined without a second click when it needs nothing more (no password, no approval).
 * Consumed once, so a guest who leaves is not pulled back in.
 */
export const joinOnArrival = new Set<string>();

export function VisitorView(props: { view: Schemas['VisitorRoomView']; onChanged: () => void }) {
  const { room, me } = props.view;
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const asGuest = session.value?.guest != null;
  const problem = error == null ? {} : joinProblem(error, room, asGuest);

  const join = async (event?: Event) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/rooms/{roomId}/join', { params: { path: { roomId: room.id } }, body: room.hasPassword ? { password } : {} }));
      props.onChanged();
    } catch (caught) {
      setError(caught);
      setBusy(false);
      if (joinProblem(caught, room, asGuest).reload) props.onChanged();
    }
  };
  useEffect(() => {
    const arriving = joinOnArrival.delete(room.id);
    if (arriving && me.status === 'none' && room.status === 'active' && !room.hasPassword && !room.requireJoinApproval) void join();
  }, [room.id]);
  const withdraw = async () => {
    setError(null);
    try {
      await call(api.POST('/api/rooms/{roomId}/leave', { params: { path: { roomId: room.id } } }));
      props.onChanged();
    } catch (caught) {
      setError(caught);
    }
  };

  let body;
  if (room.status === 'pending_review') body = <p class="notice">This room is waiting for an administrator’s review. It opens once approved.</p>;
  else if (room.status === 'rejected') body = <p class="notice notice-error">This room was turned down in review and cannot be joined.</p>;
  else if (me.status === 'banned')
    body = (
      <div class="notice notice-error">
        <p class="notice-title">You are banned from this room</p>
        <p>Only a room admin can lift the ban; ask one if you think it is a mistake.</p>
      </div>
    );
  else if (me.status === 'pending')
    body = (
      <div class="notice" role="status">
        <p class="notice-title">Join request sent</p>
        <p>A room admin has to approve it. This page shows the room once they do.</p>
        <p>
          <button type="button" onClick={props.onChanged}>
            Check again
          </button>{' '}
          <button type="button" class="button-quiet" onClick={() => void withdraw()}>
            Withdraw the request
          </button>
        </p>
      </div>
    );
  else
    body = (
      <form class="form" onSubmit={(event) => void join(event)}>
        {room.requireJoinApproval && <p class="muted">A room admin approves new members.</p>}
        {room.hasPassword && (
          <Field label="Room password" type="password" autocomplete="off" required value={password} onValue={setPassword} error={issueFor(error, 'password')} />
        )}
        <SubmitButton busy={busy}>{room.requireJoinApproval ? 'Ask to join' : 'Join room'}</SubmitButton>
      </form>
    );

  return (
    <Page title={room.name}>
      <p class="muted">
        {room.memberCount === 1 ? '1 member' : `${room.memberCount} members`}
        {room.hasPassword ? ' · password' : ''}
        {room.requireJoinApproval ? ' · approval needed' : ''}
      </p>
      <ErrorNotice error={error} title={problem.title} next={problem.next} />
      {body}
      {room.status === 'active' && <ShareLink roomId={room.id} />}
    </Page>
  );
}
