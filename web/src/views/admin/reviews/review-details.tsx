/** One review as its workflow answers now: who asked, when it expires, and the decision or the controls to make it. */
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { formatTime } from '../../../ui/format.js';
import { Decision } from './decision.js';
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';

export function ReviewDetails(props: { reviewId?: string; params?: { reviewId?: string } }) {
  const t = useT();
  const reviewId = props.params?.reviewId ?? props.reviewId ?? '';
  const loaded = useLoad(() => call(api.GET('/api/admin/reviews/{reviewId}', { params: { path: { reviewId } } })), [reviewId]);
  const review = loaded.data;
  const subject = review ? (review.kind === 'registration' ? review.username : review.roomName) : '';
  return (
    <Page title={review ? t('admin.reviews.details.title', { subject }) : t('admin.reviews.details.titleLoading')} wide>
      <p>
        <a href="/admin/reviews">{t('admin.reviews.details.all')}</a>
      </p>
      <ErrorNotice error={loaded.error} />
      {review && (
        <>
          <dl class="admin-facts">
            <dt>{t('admin.reviews.facts.kind')}</dt>
            <dd>{review.kind === 'registration' ? t(`admin.reviews.modes.${review.mode}`) : t('admin.reviews.details.room')}</dd>
            {review.kind === 'registration' ? (
              <>
                <dt>{t('admin.reviews.facts.username')}</dt>
                <dd>{review.username}</dd>
                {review.userId && (
                  <>
                    <dt>{t('admin.reviews.facts.account')}</dt>
                    <dd>
                      <a href={`/admin/users/${review.userId}`}>{review.username}</a>
                    </dd>
                  </>
                )}
              </>
            ) : (
              <>
                <dt>{t('admin.reviews.facts.room')}</dt>
                <dd>
                  <a href={`/admin/rooms/${review.roomId}`}>{review.roomName}</a>
                </dd>
                <dt>{t('admin.reviews.facts.owner')}</dt>
                <dd>
                  <a href={`/admin/users/${review.ownerId}`}>{review.ownerId}</a>
                </dd>
              </>
            )}
            <dt>{t('admin.reviews.facts.state')}</dt>
            <dd>{t(`admin.reviews.states.${review.state}`)}</dd>
            <dt>{t('admin.reviews.facts.requested')}</dt>
            <dd>{formatTime(review.requestedAt)}</dd>
            <dt>{t('admin.reviews.facts.expires')}</dt>
            <dd>{formatTime(review.expiresAt)}</dd>
            {review.decision && <DecisionFacts decision={review.decision} />}
            {review.workflowUrl && (
              <>
                <dt>{t('admin.reviews.facts.workflow')}</dt>
                <dd>
                  <a href={review.workflowUrl} target="_blank" rel="noopener noreferrer">
                    <Rich k="admin.reviews.details.open" parts={{ more: <span class="visually-hidden">{t('admin.reviews.details.newTab')}</span> }} />
                  </a>
                </dd>
              </>
            )}
          </dl>
          {review.state === 'pending' && <Decision reviewId={review.reviewId} subject={subject} onDecided={loaded.reload} />}
        </>
      )}
    </Page>
  );
}

function DecisionFacts(props: { decision: NonNullable<Schemas['Review']['decision']> }) {
  const t = useT();
  return (
    <>
      <dt>{t('admin.reviews.facts.decidedBy')}</dt>
      <dd>{props.decision.reviewer}</dd>
      <dt>{t('admin.reviews.facts.decided')}</dt>
      <dd>{formatTime(props.decision.decidedAt)}</dd>
      {props.decision.reason && (
        <>
          <dt>{t('admin.reviews.facts.reason')}</dt>
          <dd>{props.decision.reason}</dd>
        </>
      )}
    </>
  );
}
