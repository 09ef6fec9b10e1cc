/**
 * The home page (`/`): what svc is, in one sentence, and the next step from wherever the person
 * is: start a room (a name is enough), open a room from a link, sign in or continue as a guest.
 * With a session, their favourite rooms and then their own rooms follow; the public directory has its own page (`/rooms`).
 */
import { useState } from 'preact/hooks';
import { usePublicInfo } from '../../state/public-info.js';
import { accountClosed, currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { CreateRoomForm, PendingReview, type RoomInfo } from './create-room-form.js';
import { JoinByLink } from './join-by-link.js';
import { FavouriteRooms } from './favourite-rooms.js';
import { MyRooms } from './my-rooms.js';
import { GuestForm, signInHref } from './sign-in-prompt.js';
import { useT } from '../../i18n/use-t.js';
import './rooms.css';

export function Home() {
  const t = useT();
  const { info, error } = usePublicInfo();
  const current = session.value;
  // Where closing an account lands (web/src/views/account/close-account-section.tsx).
  const closed = accountClosed.value && current === null;
  return (
    <Page title={t('rooms.home.title')} wide>
      {closed && <p role="status">{t('rooms.home.closed')}</p>}
      <p class="home-lede">{t('rooms.home.lede')}</p>
      {current === undefined ? (
        <p aria-live="polite">{t('rooms.loading')}</p>
      ) : (
        <>
          <div class="home-steps">
            <section class="card home-step" aria-labelledby="start-heading">
              <h2 id="start-heading">{t('rooms.home.start')}</h2>
              <StartRoom info={info} error={error} />
            </section>
            <section class="card home-step" aria-labelledby="join-heading">
              <h2 id="join-heading">{t('rooms.home.join')}</h2>
              <p class="muted">{t('rooms.home.joinHint')}</p>
              <JoinByLink />
              {current === null && info?.guests === true && (
                <>
                  <p class="muted home-guest">{t('rooms.home.guestHint')}</p>
                  <GuestForm />
                </>
              )}
            </section>
          </div>
          {current?.user && <FavouriteRooms />}
          {current !== null && <MyRooms />}
          <p>
            <a href="/rooms">{t('rooms.home.browse')}</a>
          </p>
        </>
      )}
    </Page>
  );
}

function StartRoom(props: { info: ReturnType<typeof usePublicInfo>['info']; error: unknown }) {
  const t = useT();
  const [pending, setPending] = useState<RoomInfo | null>(null);
  const { info } = props;
  if (!currentUser.value)
    return (
      <>
        <p>{t('rooms.home.needsAccount')}</p>
        <p class="home-actions">
          <a class="button-link" href={signInHref('/')}>
            {t('rooms.home.signIn')}
          </a>
          <a href="/signup">{t('rooms.home.createAccount')}</a>
        </p>
      </>
    );
  if (!info) return props.error ? <ErrorNotice error={props.error} /> : <p aria-live="polite">{t('rooms.loading')}</p>;
  if (!info.rooms.creationAllowed) return <p>{t('rooms.home.startingOff')}</p>;
  if (pending) return <PendingReview room={pending} />;
  return <CreateRoomForm policy={info.rooms} onPending={setPending} compact />;
}
