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
import './rooms.css';

export function Home() {
  const { info, error } = usePublicInfo();
  const current = session.value;
  // Where closing an account lands (web/src/views/account/close-account-section.tsx).
  const closed = accountClosed.value && current === null;
  return (
    <Page title="Watch together" wide>
      {closed && <p role="status">Your account is closed and you are signed out.</p>}
      <p class="home-lede">Watch videos and streams together, in sync, with chat and a shared playlist.</p>
      {current === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : (
        <>
          <div class="home-steps">
            <section class="card home-step" aria-labelledby="start-heading">
              <h2 id="start-heading">Start a room</h2>
              <StartRoom info={info} error={error} />
            </section>
            <section class="card home-step" aria-labelledby="join-heading">
              <h2 id="join-heading">Join a room</h2>
              <p class="muted">Got a link from a friend? Paste it here, or just open it.</p>
              <JoinByLink />
              {current === null && info?.guests === true && (
                <>
                  <p class="muted home-guest">No account? Continue as a guest to watch in the rooms you are invited to.</p>
                  <GuestForm />
                </>
              )}
            </section>
          </div>
          {current?.user && <FavouriteRooms />}
          {current !== null && <MyRooms />}
          <p>
            <a href="/rooms">Browse the public rooms</a>
          </p>
        </>
      )}
    </Page>
  );
}

function StartRoom(props: { info: ReturnType<typeof usePublicInfo>['info']; error: unknown }) {
  const [pending, setPending] = useState<RoomInfo | null>(null);
  const { info } = props;
  if (!currentUser.value)
    return (
      <>
        <p>Starting a room takes an account: then a name is all it needs.</p>
        <p class="home-actions">
          <a class="button-link" href={signInHref('/')}>
            Sign in
          </a>
          <a href="/signup">Create an account</a>
        </p>
      </>
    );
  if (!info) return props.error ? <ErrorNotice error={props.error} /> : <p aria-live="polite">Loading…</p>;
  if (!info.rooms.creationAllowed) return <p>Starting rooms is turned off on this server.</p>;
  if (pending) return <PendingReview room={pending} />;
  return <CreateRoomForm policy={info.rooms} onPending={setPending} compact />;
}
