/**
 * Signups and rooms under review, newest first, with their decisions inline. The list comes
 * from Temporal's visibility store, which lags a decision by a moment, so a decided review
 * shows the state its decision answered until the next load agrees.
 */
import { useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { formatTime } from '../../../ui/format.js';
import { AdminList, ListFilters, SelectFilter } from '../admin-list.js';
import { Decision } from './decision.js';

type Summary = Schemas['ReviewSummary'];
type State = Summary['state'];
type Kind = Summary['kind'];

const STATES: Array<[State | '', string]> = [
  ['pending', 'pending'],
  ['approved', 'approved'],
  ['rejected', 'rejected'],
  ['expired', 'expired'],
  ['', 'any'],
];
const KINDS: Array<[Kind | '', string]> = [
  ['', 'all'],
  ['registration', 'signups'],
  ['room', 'rooms'],
];

export function ReviewsList() {
  const [state, setState] = useState<State | ''>('pending');
  const [kind, setKind] = useState<Kind | ''>('');
  const [decided, setDecided] = useState<Record<string, Schemas['Review']>>({});
  const [announcement, setAnnouncement] = useState('');
  const loaded = useLoad(
    () => call(api.GET('/api/admin/reviews', { params: { query: { limit: 200, ...(state ? { state } : {}), ...(kind ? { kind } : {}) } } })),
    [state, kind],
  );
  const reviews = (loaded.data?.reviews ?? []).map((review) => {
    const decision = decided[review.reviewId];
    return decision ? { ...review, state: decision.state } : review;
  });
  // A review decided here leaves a list filtered to another state at once.
  const shown = state ? reviews.filter((review) => review.state === state) : reviews;

  return (
    <Page
      title="Reviews"
      wide
      actions={
        <button type="button" onClick={loaded.reload} disabled={loaded.loading}>
          Refresh
        </button>
      }
    >
      <ListFilters label="Filter reviews">
        <SelectFilter id="reviews-state" label="State" value={state} options={STATES} onValue={setState} />
        <SelectFilter id="reviews-kind" label="Kind" value={kind} options={KINDS} onValue={setKind} />
      </ListFilters>
      <p class="admin-status" role="status">
        {announcement}
      </p>
      <AdminList
        label="Reviews"
        items={loaded.data ? shown : null}
        error={loaded.error}
        keyOf={(review) => review.reviewId}
        empty="No reviews here. A request made a moment ago may take a few seconds to appear: refresh."
        card={(review) => (
          <>
            <h2 class="admin-review-title">
              <a href={`/admin/reviews/${encodeURIComponent(review.reviewId)}`}>
                {review.kind === 'registration' ? 'Signup' : 'Room'}: {review.subject}
              </a>
            </h2>
            <p class="muted">
              {review.kind === 'registration' ? `${review.mode} signup` : 'new room'}, requested {formatTime(review.startTime)} · <span class="badge">{review.state}</span>
              {review.workflowUrl && (
                <>
                  {' · '}
                  <a href={review.workflowUrl} target="_blank" rel="noopener noreferrer">
                    Workflow in the Temporal UI<span class="visually-hidden"> for {review.subject} (opens in a new tab)</span>
                  </a>
                </>
              )}
            </p>
            {review.state === 'pending' && (
              <Decision
                reviewId={review.reviewId}
                subject={review.subject}
                onDecided={(answer) => {
                  setDecided((previous) => ({ ...previous, [review.reviewId]: answer }));
                  setAnnouncement(`${review.subject}: ${answer.state}.`);
                  loaded.reload();
                }}
              />
            )}
          </>
        )}
      />
    </Page>
  );
}
