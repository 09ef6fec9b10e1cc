/**
 * The room as a member has it: one RoomSession for as long as the page shows the room (started
 * on mount, stopped on unmount), the join link under the heading, the player first, and the panels
 * beside it (below it in theatre mode and on narrow screens). Once the server ends the
 * session (signed out, banned: 4401), the membership (kicked or banned: 4403) or deletes the
 * room (4404), nothing of the room is shown.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { CLOSE } from '../../../../gateways/ws/protocol-constants.js';
import { api, call } from '../../api/client.js';
import type { ConnectionStatus } from '../../realtime/connection.js';
import { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { Player } from './player/player.js';
import { RoomTabs } from './room-tabs.js';
import { ShareLink } from './share-link.js';
import { theatre } from './view-mode.js';

export function MemberRoom(props: { roomId: string; onLeft: () => void }) {
  const session = useMemo(() => new RoomSession(props.roomId), [props.roomId]);
  useEffect(() => {
    session.start();
    return () => session.stop();
  }, [session]);
  const status = session.connection.status.value;
  const view = session.view.value;

  if (status.state === 'ended') return <Ended status={status} />;
  if (!view) return <Page title="Room">{<p aria-live="polite">{status.state === 'reconnecting' ? 'Reconnecting to the room…' : 'Connecting to the room…'}</p>}</Page>;
  return (
    <Page title={view.room.name} wide actions={<LeaveButton session={session} onLeft={props.onLeft} />}>
      <ConnectionNotice status={status} />
      <ShareLink roomId={view.room.id} />
      <div class={theatre.value ? 'room-layout is-theatre' : 'room-layout'}>
        <div class="room-main">
          <Player room={session} />
        </div>
        <RoomTabs session={session} />
      </div>
    </Page>
  );
}

function ConnectionNotice(props: { status: ConnectionStatus }) {
  const { status } = props;
  return (
    <p class={status.state === 'open' ? 'visually-hidden' : 'notice connection-notice'} role="status">
      {status.state === 'reconnecting' ? `Connection lost: reconnecting (attempt ${status.attempt})…` : status.state === 'connecting' ? 'Connecting…' : 'Connected to the room.'}
    </p>
  );
}

function Ended(props: { status: Extract<ConnectionStatus, { state: 'ended' }> }) {
  const { code, reason } = props.status;
  const signedOut = code === CLOSE.sessionEnded || code === 401;
  const removed = code === CLOSE.membershipEnded || code === 403;
  const deleted = code === CLOSE.roomDeleted || code === 404;
  const title = signedOut ? 'Your session ended' : removed ? 'You were removed from this room' : deleted ? 'This room was deleted' : 'Disconnected from the room';
  return (
    <Page title={title}>
      <div class="notice notice-error" role="alert">
        <p class="notice-title">{title}</p>
        <p>
          {signedOut
            ? `${reason ? `${reason.charAt(0).toUpperCase()}${reason.slice(1)}` : 'You were signed out'}. Sign in again to come back to the room.`
            : removed
            ? 'A room admin removed or banned you, or your membership ended. You no longer see the room.'
            : deleted
              ? 'The room and its playlist and chat no longer exist.'
              : `The connection cannot be restored${reason ? `: ${reason}` : ''}. Reload the page to try again.`}
        </p>
      </div>
      <p>
        <a href="/rooms">Browse rooms</a>
      </p>
    </Page>
  );
}

function LeaveButton(props: { session: RoomSession; onLeft: () => void }) {
  const { route } = useLocation();
  const [error, setError] = useState<unknown>(null);
  const [asking, setAsking] = useState(false);
  const me = props.session.view.value?.me;
  if (!me || me.isOwner) return null; // an owner cannot leave: transfer or delete the room
  const leave = async () => {
    try {
      await call(api.POST('/api/rooms/{roomId}/leave', { params: { path: { roomId: props.session.roomId } } }));
      route('/');
    } catch (caught) {
      setError(caught);
    }
  };
  return (
    <div class="leave-room">
      <ErrorNotice error={error} />
      {asking ? (
        <>
          <span>Leave this room?</span>
          <button type="button" class="button-danger" onClick={() => void leave()}>
            Leave
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Stay
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          Leave room
        </button>
      )}
    </div>
  );
}
