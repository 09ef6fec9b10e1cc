/**
 * Create a room (`/rooms/new`) with every option (create-room-form.tsx); a room that needs
 * review says so instead of opening. The home page starts one from a name alone.
 */
import { useEffect, useState } from 'preact/hooks';
import { loadPublicInfo, publicInfo } from '../../state/public-info.js';
import { currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { CreateRoomForm, PendingReview, type RoomInfo } from './create-room-form.js';
import { signInHref } from './sign-in-prompt.js';
import { Rich } from '../../i18n/rich.js';
import { useT } from '../../i18n/use-t.js';
import './rooms.css';

export function CreateRoom() {
  const t = useT();
  const [infoError, setInfoError] = useState<unknown>(null);
  useEffect(() => void loadPublicInfo().catch(setInfoError), []);
  const [created, setCreated] = useState<RoomInfo | null>(null);
  const info = publicInfo.value;

  let body;
  if (session.value === undefined || (!info && !infoError)) body = <p aria-live="polite">{t('rooms.loading')}</p>;
  else if (!currentUser.value)
    body = (
      <p class="notice">
        <Rich k="rooms.create.needsAccount" parts={{ link: <a href={signInHref('/rooms/new')}>{t('rooms.create.signInToCreate')}</a> }} />
      </p>
    );
  else if (!info) body = <ErrorNotice error={infoError} />;
  else if (!info.rooms.creationAllowed) body = <p class="notice">{t('rooms.create.off')}</p>;
  else if (created)
    body = (
      <>
        <PendingReview room={created} />
        <p>
          <a href="/">{t('rooms.create.backHome')}</a>
        </p>
      </>
    );
  else body = <CreateRoomForm policy={info.rooms} onPending={setCreated} />;
  return <Page title={t('rooms.create.title')}>{body}</Page>;
}
