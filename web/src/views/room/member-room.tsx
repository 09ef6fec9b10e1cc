/**
 * The room as a member has it: one RoomSession for as long as the page shows the room (started
 * on mount, stopped on unmount), the join link under the heading, the player first, and the panels
 * beside it (below it in theatre mode and on narrow screens). Once the server ends the
 * session (signed out, banned: 4401), the membership (kicked or banned: 4403) or deletes the
 * room (4404), nothing of the room is shown.
 */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { RoomSession } from '../../state/room.js';
import { RoomCall } from '../../call/room-call.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { ConnectionEnded, ConnectionNotice } from './connection-notice.js';
import { FavouriteButton } from './favourite-button.js';
import { Player } from './player/player.js';
import { RoomTabs } from './room-tabs.js';
import { ShareLink } from './share-link.js';
import { theatre } from './view-mode.js';
import { VoteSkip } from './vote-skip.js';
import { CallNotice } from './call/call-notice.js';
import { ShareControls } from './call/share-controls.js';
import { Stage } from './call/stage.js';
import { useT } from '../../i18n/use-t.js';

export function MemberRoom(props: { roomId: string; onLeft: () => void }) {
  const t = useT();
  const session = useMemo(() => new RoomSession(props.roomId), [props.roomId]);
  useEffect(() => {
    session.start();
    return () => session.stop();
  }, [session]);
  // The SFU call: the Voice tab and the stage share it; it ends with the room page.
  const roomCall = useMemo(() => new RoomCall(session), [session]);
  useEffect(() => () => roomCall.dispose(), [roomCall]);
  const status = session.connection.status.value;
  const view = session.view.value;

  if (status.state === 'ended') return <ConnectionEnded status={status} />;
  if (!view) return <Page title={t('room.title')}>{<ConnectionNotice connection={session.connection} />}</Page>;
  return (
    <Page title={view.room.name} wide actions={
        <div class="leave-room">
          <FavouriteButton roomId={view.room.id} />
          <LeaveButton session={session} onLeft={props.onLeft} />
        </div>
      }>
      <ConnectionNotice connection={session.connection} />
      <ShareLink roomId={view.room.id} />
      <div class={theatre.value ? 'room-layout is-theatre' : 'room-layout'}>
        <div class="room-main">
          <Stage session={session} call={roomCall} />
          {/* The stage takes the video's place; the player stays underneath, playing or paused as the room has it. */}
          <div hidden={(view.stage ?? []).length > 0}>
            <Player room={session} />
          </div>
          <CallNotice call={roomCall} />
          <ShareControls session={session} call={roomCall} />
          <VoteSkip session={session} />
        </div>
        <RoomTabs session={session} call={roomCall} />
      </div>
    </Page>
  );
}

function LeaveButton(props: { session: RoomSession; onLeft: () => void }) {
  const t = useT();
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
          <span>{t('room.leave.ask')}</span>
          <button type="button" class="button-danger" onClick={() => void leave()}>
            {t('room.leave.confirm')}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            {t('room.leave.stay')}
          </button>
        </>
      ) : (
        <button type="button" onClick={() => setAsking(true)}>
          {t('room.leave.button')}
        </button>
      )}
    </div>
  );
}
