/**
 * A room (`/rooms/:roomId`): members get the live room (socket, player, panels), everyone else
 * the preview with what joining takes. Which one is decided by `GET /api/rooms/{roomId}`, asked
 * again after a join so an approved member moves on without a reload.
 */
import { useEffect } from 'preact/hooks';
import { useRoute } from 'preact-iso';
import { api, call } from '../../api/client.js';
import { loadPublicInfo } from '../../state/public-info.js';
import { currentId, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useLoad } from '../../ui/use-load.js';
import { useT } from '../../i18n/use-t.js';
import { SignInPrompt } from '../rooms/sign-in-prompt.js';
import { MemberRoom } from './member-room.js';
import { VisitorView, joinOnArrival } from './visitor-view.js';
import './room.css';

export function RoomPage() {
  const t = useT();
  const roomId = useRoute().params.roomId ?? '';
  useEffect(() => void loadPublicInfo().catch(() => undefined), []);
  const who = currentId.value;
  if (session.value === undefined) return <Page title={t('room.title')}>{<p aria-live="polite">{t('common.loading')}</p>}</Page>;
  if (!who)
    return (
      <Page title={t('room.title')}>
        <SignInPrompt
          next={`/rooms/${encodeURIComponent(roomId)}`}
          why={t('room.invited')}
          onGuest={() => joinOnArrival.add(roomId)}
        />
      </Page>
    );
  return <RoomFor key={`${roomId}:${who}`} roomId={roomId} />;
}

function RoomFor(props: { roomId: string }) {
  const t = useT();
  const room = useLoad(() => call(api.GET('/api/rooms/{roomId}', { params: { path: { roomId: props.roomId } } })), [props.roomId]);
  if (room.loading && !room.data) return <Page title={t('room.title')}>{<p aria-live="polite">{t('room.loadingRoom')}</p>}</Page>;
  if (!room.data)
    return (
      <Page title={t('room.title')}>
        <ErrorNotice error={room.error} />
        <p>
          <a href="/rooms">{t('room.browseRooms')}</a>
        </p>
      </Page>
    );
  if (room.data.access === 'member') return <MemberRoom roomId={props.roomId} onLeft={room.reload} />;
  return <VisitorView view={room.data} onChanged={room.reload} />;
}
