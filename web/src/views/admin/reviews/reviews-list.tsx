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
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';

type Summary = Schemas['ReviewSummary'];
type State = Summary['state'];
type Kind = Summary['kind'];

const STATES: State[] = ['pending', 'approved', 'rejected', 'expired'];
const KINDS: Kind[] = ['registration', 'room'];

export function ReviewsList() {
  const t = useT();
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
      title={t('admin.reviews.title')}
      wide
      actions={
        <button type="button" onClick={loaded.reload} disabled={loaded.loading}>
          {t('admin.reviews.refresh')}
        </button>
      }
    >
      <ListFilters label={t('admin.reviews.filter')}>
        <SelectFilter
          id="reviews-state"
          label={t('admin.reviews.state')}
          value={state}
          options={[...STATES.map((value): [State, string] => [value, t(`admin.reviews.states.${value}`)]), ['', t('admin.reviews.anyState')]]}
          onValue={setState}
        />
        <SelectFilter
          id="reviews-kind"
          label={t('admin.reviews.kind')}
          value={kind}
          options={[['', t('admin.reviews.kinds.all')], ...KINDS.map((value): [Kind, string] => [value, t(`admin.reviews.kinds.${value}`)])]}
          onValue={setKind}
        />
      </ListFilters>
      <p class="admin-status" role="status">
        {announcement}
      </p>
      <AdminList
        label={t('admin.reviews.title')}
        items={loaded.data ? shown : null}
        error={loaded.error}
        keyOf={(review) => review.reviewId}
        empty={t('admin.reviews.empty')}
        card={(review) => (
          <>
            <h2 class="admin-review-title">
              <a href={`/admin/reviews/${encodeURIComponent(review.reviewId)}`}>
                {t(`admin.reviews.cardTitle.${review.kind}`, { subject: review.subject })}
              </a>
            </h2>
            <p class="muted">
              <Rich
                k="admin.reviews.cardMeta"
                parts={{ state: <span class="badge">{t(`admin.reviews.states.${review.state}`)}</span> }}
                values={{ kind: review.kind === 'registration' ? t(`admin.reviews.modes.${review.mode}`) : t('admin.reviews.newRoom'), when: formatTime(review.startTime) }}
              />
              {review.workflowUrl && (
                <>
                  {' · '}
                  <a href={review.workflowUrl} target="_blank" rel="noopener noreferrer">
                    <Rich
                      k="admin.reviews.workflow"
                      parts={{ more: <span class="visually-hidden">{t('admin.reviews.workflowMore', { subject: review.subject })}</span> }}
                    />
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
                  setAnnouncement(t('admin.reviews.decided', { subject: review.subject, state: t(`admin.reviews.states.${answer.state}`) }));
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
