/**
 * The admin landing page: what needs attention (open reviews, rooms waiting for review) with a
 * link into each section. Counts come from the same listings the sections use.
 */
import { api, call } from '../../api/client.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { Page } from '../../ui/page.js';
import { useLoad } from '../../ui/use-load.js';

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
  const counts = useLoad(loadCounts, []);
  const data = counts.data;
  return (
    <Page title="Administration" wide>
      <ErrorNotice error={counts.error} />
      <ul class="card-list admin-overview">
        <li class="card">
          <h2>
            <a href="/admin/reviews">Reviews</a>
          </h2>
          <p>
            {!data
              ? 'Loading…'
              : data.pendingReviews === null
                ? 'Reviews cannot be listed right now (the review service is unavailable).'
                : `${data.pendingReviews} waiting for a decision.`}
          </p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/rooms">Rooms</a>
          </h2>
          <p>{!data ? 'Loading…' : `${data.pendingRooms}${data.morePendingRooms ? '+' : ''} rooms waiting for approval.`}</p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/users">Users</a>
          </h2>
          <p>Find accounts, see how they sign in, ban or unban them, change roles.</p>
        </li>
        <li class="card">
          <h2>
            <a href="/admin/settings">Settings</a>
          </h2>
          <p>Who can sign up and what needs approval, limits, permissions, sign-in providers, calls. Changes apply at once on every server.</p>
        </li>
      </ul>
    </Page>
  );
}
