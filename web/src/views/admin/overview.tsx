/**
 * The admin landing page: what needs attention (open reviews, rooms waiting for review) with a
 * link into each section. Counts come from the same listings the sections use.
 */
import { api, call } from '../../api/client.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useLoad } from '../../ui/use-load.js';
import { useT } from '../../i18n/use-t.js';

interface Counts {
  pendingReviews: number | null;
  pendingRooms: number;
  morePendingRooms: boolean;
}

async function loadCounts(): Promise<Counts> {
  const [reviews, rooms] = await Promise.all([
    // Reviews need Temporal; without it the rest of the page still has something to say.
    call(api.GET('/api/admin/reviews', { params: { query: { state: 'pending', limit: 1000 } } })).catch(() => null),
    call(api.GET('/api/admin/rooms', { params: { query: { status: 'pending_review', limit: 100 } } })),
  ]);
  return { pendingReviews: reviews ? reviews.reviews.length : null, pendingRooms: rooms.rooms.length, morePendingRooms: rooms.nextCursor !== undefined };
}

export function Overview() {
  const t = useT();
  const counts = useLoad(loadCounts, []);
  const data = counts.data;
  return (
    <Page title={t('admin.title')} wide>
      <ErrorNotice error={counts.error} />
      <ul class="card-list admin-overview">
        <li class="card">
          <h2>
            <a href="/admin/reviews">{t('admin.nav.reviews')}</a>
          </h2>
          <p>
            {!data
              ? t('common.loading')
              : data.pendingReviews === null
                ? t('admin.overview.reviewsUnavailable')
                : t('admin.overview.pendingReviews', { n: data.pendingReviews })}
          </p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/rooms">{t('admin.nav.rooms')}</a>
          </h2>
          <p>
            {!data
              ? t('common.loading')
              : data.morePendingRooms
                ? t('admin.overview.pendingRoomsMore', { n: data.pendingRooms })
                : t('admin.overview.pendingRooms', { count: data.pendingRooms })}
          </p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/users">{t('admin.nav.users')}</a>
          </h2>
          <p>{t('admin.overview.users')}</p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/settings">{t('admin.nav.settings')}</a>
          </h2>
          <p>{t('admin.overview.settings')}</p>
        </li>
      </ul>
    </Page>
  );
}
