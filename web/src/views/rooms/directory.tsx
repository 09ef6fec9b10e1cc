/**
 * The room directory (`/rooms`): public rooms, searched by name and paged with the server's keyset
 * cursor, and "My rooms" for whoever has a session. Listing needs a session (user or guest), so
 * a visitor without one is asked to sign in or continue as a guest.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import { loadPublicInfo, publicInfo } from '../../state/public-info.js';
import { currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { usePaged } from '../../ui/use-paged.js';
import { MyRooms } from './my-rooms.js';
import { RoomCard } from './room-card.js';
import { SignInPrompt } from './sign-in-prompt.js';
import { useT } from '../../i18n/use-t.js';
import './rooms.css';

export function Directory() {
  const t = useT();
  useEffect(() => void loadPublicInfo().catch(() => undefined), []);
  const current = session.value;
  const canCreate = currentUser.value !== null && publicInfo.value?.rooms.creationAllowed === true;
  return (
    <Page
      title={t('rooms.directory.title')}
      wide
      actions={
        canCreate && (
          <a class="button-link" href="/rooms/new">
            {t('rooms.directory.create')}
          </a>
        )
      }
    >
      {current === undefined ? (
        <p aria-live="polite">{t('rooms.loading')}</p>
      ) : current === null ? (
        <SignInPrompt next="/rooms" why={t('rooms.directory.signInWhy')} />
      ) : (
        <>
          <MyRooms />
          <PublicRooms />
        </>
      )}
    </Page>
  );
}

function PublicRooms() {
  const t = useT();
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const paged = usePaged(async (cursor) => {
    const page = await call(api.GET('/api/rooms', { params: { query: { ...(query ? { query } : {}), ...(cursor ? { cursor } : {}) } } }));
    return { items: page.rooms, nextCursor: page.nextCursor };
  }, [query]);
  const { loading, error, hasMore, loadMore } = paged;
  const rooms = paged.items ?? [];

  return (
    <section aria-labelledby="public-rooms">
      <h2 id="public-rooms">{t('rooms.directory.publicRooms')}</h2>
      <form
        class="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(input.trim());
        }}
      >
        <label for="room-search">{t('rooms.directory.search')}</label>
        <div class="search-row">
          <input id="room-search" type="search" value={input} onInput={(event) => setInput(event.currentTarget.value)} maxLength={100} />
          <button type="submit">{t('rooms.directory.searchButton')}</button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <p class="muted" aria-live="polite">
        {loading ? t('rooms.directory.loadingRooms') : rooms.length === 0 ? (query ? t('rooms.directory.noMatch', { query }) : t('rooms.directory.none')) : t('rooms.directory.shown', { count: rooms.length })}
      </p>
      <ul class="card-list">
        {rooms.map((room) => (
          <RoomCard key={room.id} room={room} />
        ))}
      </ul>
      {hasMore && (
        <button type="button" onClick={loadMore} disabled={loading}>
          {t('rooms.directory.more')}
        </button>
      )}
    </section>
  );
}
