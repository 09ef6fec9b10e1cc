/**
 * The room directory (`/`): public rooms, searched by name and paged with the server's keyset
 * cursor, and "My rooms" for whoever has a session. Listing needs a session (user or guest), so
 * a visitor without one is asked to sign in or continue as a guest.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { loadPublicInfo, publicInfo } from '../../state/public-info.js';
import { currentUser, session } from '../../state/session.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { MyRooms } from './my-rooms.js';
import { RoomCard } from './room-card.js';
import { SignInPrompt } from './sign-in-prompt.js';
import './rooms.css';

type RoomSummary = Schemas['RoomSummary'];

export function Directory() {
  useEffect(() => void loadPublicInfo().catch(() => undefined), []);
  const current = session.value;
  const canCreate = currentUser.value !== null && publicInfo.value?.rooms.creationAllowed === true;
  return (
    <Page
      title="Rooms"
      wide
      actions={
        canCreate && (
          <a class="button-link" href="/rooms/new">
            Create room
          </a>
        )
      }
    >
      {current === undefined ? (
        <p aria-live="polite">Loading…</p>
      ) : current === null ? (
        <SignInPrompt next="/" why="Sign in, or continue as a guest, to browse the rooms." />
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
  const [input, setInput] = useState('');
  const [query, setQuery] = useState('');
  const [rooms, setRooms] = useState<RoomSummary[]>([]);
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<unknown>(null);

  const load = async (q: string, after: string | undefined) => {
    setLoading(true);
    setError(null);
    try {
      const page = await call(api.GET('/api/rooms', { params: { query: { ...(q ? { query: q } : {}), ...(after ? { cursor: after } : {}) } } }));
      setRooms((previous) => (after ? [...previous, ...page.rooms] : page.rooms));
      setCursor(page.nextCursor);
    } catch (caught) {
      setError(caught);
    } finally {
      setLoading(false);
    }
  };

  useEffect(() => void load(query, undefined), [query]);

  return (
    <section aria-labelledby="public-rooms">
      <h2 id="public-rooms">Public rooms</h2>
      <form
        class="search-form"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setQuery(input.trim());
        }}
      >
        <label for="room-search">Search rooms by name</label>
        <div class="search-row">
          <input id="room-search" type="search" value={input} onInput={(event) => setInput(event.currentTarget.value)} maxLength={100} />
          <button type="submit">Search</button>
        </div>
      </form>
      <ErrorNotice error={error} />
      <p class="muted" aria-live="polite">
        {loading ? 'Loading rooms…' : rooms.length === 0 ? (query ? `No public room matches “${query}”.` : 'No public rooms yet.') : `${rooms.length} room${rooms.length === 1 ? '' : 's'} shown`}
      </p>
      <ul class="card-list">
        {rooms.map((room) => (
          <RoomCard key={room.id} room={room} />
        ))}
      </ul>
      {cursor && (
        <button type="button" onClick={() => void load(query, cursor)} disabled={loading}>
          Load more rooms
        </button>
      )}
    </section>
  );
}
