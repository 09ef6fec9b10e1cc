/** "My rooms": rooms the signed-in person owns (whatever their review status) or belongs to. */
import { api, call } from '../../api/client.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { usePaged } from '../../ui/use-paged.js';
import { RoomCard } from './room-card.js';
import { useT } from '../../i18n/use-t.js';

export function MyRooms() {
  const t = useT();
  const { items, error, hasMore, loadMore } = usePaged(async (cursor) => {
    const page = await call(api.GET('/api/me/rooms', { params: { query: cursor ? { cursor } : {} } }));
    return { items: page.rooms, nextCursor: page.nextCursor };
  }, []);
  const rooms = items ?? [];

  // Nothing to show (no rooms yet, or still loading): the section stays out of the way.
  if (rooms.length === 0 && !error) return null;
  return (
    <section aria-labelledby="my-rooms">
      <h2 id="my-rooms">{t('rooms.mine.title')}</h2>
      <ErrorNotice error={error} />
      <ul class="card-list">
        {rooms.map((entry) => (
          <RoomCard key={entry.room.id} room={entry.room} extra={entry.isOwner ? t('rooms.mine.owner') : entry.role ? t(`rooms.mine.roles.${entry.role}`) : undefined} />
        ))}
      </ul>
      {hasMore && (
        <button type="button" onClick={loadMore}>
          {t('rooms.mine.more')}
        </button>
      )}
    </section>
  );
}
