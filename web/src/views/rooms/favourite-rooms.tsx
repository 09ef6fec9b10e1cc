/** The signed-in person's favourite rooms, listed first on the home page (only rooms they may still see). */
import { api, call } from '../../api/client.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useLoad } from '../../ui/use-load.js';
import { RoomCard } from './room-card.js';
import { useT } from '../../i18n/use-t.js';

export function FavouriteRooms() {
  const t = useT();
  const favourites = useLoad(() => call(api.GET('/api/me/favourites')), []);
  const rooms = favourites.data?.rooms ?? [];
  // None starred (or still loading): the section stays out of the way.
  if (rooms.length === 0 && !favourites.error) return null;
  return (
    <section aria-labelledby="favourite-rooms">
      <h2 id="favourite-rooms">{t('rooms.favourites.title')}</h2>
      <ErrorNotice error={favourites.error} />
      <ul class="card-list">
        {rooms.map((room) => (
          <RoomCard key={room.id} room={room} extra={t('rooms.favourites.badge')} />
        ))}
      </ul>
    </section>
  );
}
