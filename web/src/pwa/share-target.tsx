/**
 * /share, where "Share → svc" lands (the manifest's share_target, GET with title, text and url):
 * what was shared, then the person's rooms to add it to (or a new room), each leading into that
 * room's add-media form with the link filled in (shared-link.ts). Someone signed out is asked to
 * sign in and comes back here with the same address, so nothing shared is lost on the way.
 */
import { useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { api, call } from '../api/client.js';
import { useT } from '../i18n/use-t.js';
import { usePublicInfo } from '../state/public-info.js';
import { currentUser, session } from '../state/session.js';
import { ErrorNotice } from '../ui/error-notice.js';
import { Page } from '../ui/page.js';
import { usePaged } from '../ui/use-paged.js';
import { CreateRoomForm, PendingReview, type RoomInfo } from '../views/rooms/create-room-form.js';
import { SignInPrompt } from '../views/rooms/sign-in-prompt.js';
import { holdSharedLink, sharedLinkFrom, type SharedLink } from './shared-link.js';
import './share-target.css';

export function ShareTarget() {
  const t = useT();
  const { query, url } = useLocation();
  const link = sharedLinkFrom(query);
  return (
    <Page title={t('pwa.share.title')}>
      {!link ? (
        <p>{t('pwa.share.noLink')}</p>
      ) : (
        <>
          <dl class="shared-link">
            <dt>{t('pwa.share.link')}</dt>
            <dd>{link.url}</dd>
            {link.title && (
              <>
                <dt>{t('pwa.share.linkTitle')}</dt>
                <dd>{link.title}</dd>
              </>
            )}
          </dl>
          {session.value === undefined ? (
            <p aria-live="polite">{t('rooms.loading')}</p>
          ) : currentUser.value ? (
            <PickRoom link={link} />
          ) : (
            // Guests own no rooms and cannot start one: an account it is.
            <SignInPrompt next={url} why={t('pwa.share.signIn')} allowGuest={false} />
          )}
        </>
      )}
    </Page>
  );
}

function PickRoom(props: { link: SharedLink }) {
  const t = useT();
  const { route } = useLocation();
  const { info } = usePublicInfo();
  const [pending, setPending] = useState<RoomInfo | null>(null);
  const { items, error, hasMore, loadMore } = usePaged(async (cursor) => {
    const page = await call(api.GET('/api/me/rooms', { params: { query: cursor ? { cursor } : {} } }));
    return { items: page.rooms, nextCursor: page.nextCursor };
  }, []);
  const rooms = (items ?? []).filter((entry) => entry.room.status === 'active');
  const open = (roomId: string) => {
    holdSharedLink(props.link, roomId);
    route(`/rooms/${encodeURIComponent(roomId)}`);
  };
  return (
    <>
      <section aria-labelledby="share-rooms">
        <h2 id="share-rooms">{t('pwa.share.pick')}</h2>
        <ErrorNotice error={error} />
        {items === null ? (
          <p aria-live="polite">{t('pwa.share.loading')}</p>
        ) : rooms.length === 0 ? (
          <p>{t('pwa.share.noRooms')}</p>
        ) : (
          <ul class="share-rooms">
            {rooms.map((entry) => (
              <li key={entry.room.id}>
                <button type="button" onClick={() => open(entry.room.id)}>
                  {t('pwa.share.addTo', { room: entry.room.name })}
                </button>
              </li>
            ))}
          </ul>
        )}
        {hasMore && (
          <button type="button" class="button-quiet" onClick={loadMore}>
            {t('pwa.share.more')}
          </button>
        )}
      </section>
      {info?.rooms.creationAllowed && (
        // The new room opens by itself once made (create-room-form.tsx); the link waits for it.
        <section aria-labelledby="share-new-room" onSubmitCapture={() => holdSharedLink(props.link, null)}>
          <h2 id="share-new-room">{t('pwa.share.newRoom')}</h2>
          {pending ? <PendingReview room={pending} /> : <CreateRoomForm policy={info.rooms} onPending={setPending} compact />}
        </section>
      )}
    </>
  );
}
