/** "My rooms": rooms the signed-in person owns (whatever their review status) or belongs to. */
import { useState } from 'preact/hooks';
import { api, call } from '../../api/client.js';
import type { Schemas } from '../../api/types.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { RoomCard } from './room-card.js';

type MyRoom = Schemas['MyRoomPage']['rooms'][number];

export function MyRooms() {
  const first = useLoad(() => call(api.GET('/api/me/rooms')), []);
  const [more, setMore] = useState<{ rooms: MyRoom[]; cursor: string | undefined } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const rooms = [...(first.data?.rooms ?? []), ...(more?.rooms ?? [])];
  const cursor = more ? more.cursor : first.data?.nextCursor;

  const loadMore = async () => {
    try {
      const page = await call(api.GET('/api/me/rooms', { params: { query: { cursor } } }));
      setMore({ rooms: [...(more?.rooms ?? []), ...page.rooms], cursor: page.nextCursor });
    } catch (caught) {
      setError(caught);
    }
  };

  if (first.loading || (rooms.length === 0 && !first.error)) return null;
  return (
    <section aria-labelledby="my-rooms">
      <h2 id="my-rooms">My rooms</h2>
      <ErrorNotice error={first.error ?? error} />
      <ul class="card-list">
        {rooms.map((entry) => (
          <RoomCard key={entry.room.id} room={entry.room} extra={entry.isOwner ? 'You own it' : entry.role ? `You are ${entry.role === 'admin' ? 'an admin' : `a ${entry.role}`}` : undefined} />
        ))}
      </ul>
      {cursor && (
        <button type="button" onClick={() => void loadMore()}>
          Load more of my rooms
        </button>
      )}
    </section>
  );
}
