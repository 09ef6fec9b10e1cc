/** One review as its workflow answers now: who asked, when it expires, and the decision or the controls to make it. */
import { api, call } from '../../../api/client.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { Page } from '../../../ui/page.js';
import { useLoad } from '../../../ui/use-load.js';
import { formatTime } from '../../../ui/format.js';
import { Decision } from './decision.js';

export function ReviewDetails(props: { reviewId?: string; params?: { reviewId?: string } }) {
  const reviewId = props.params?.reviewId ?? props.reviewId ?? '';
  const loaded = useLoad(() => call(api.GET('/api/admin/reviews/{reviewId}', { params: { path: { reviewId } } })), [reviewId]);
  const review = loaded.data;
  const subject = review ? (review.kind === 'registration' ? review.username : review.roomName) : '';
  return (
    <Page title={review ? `Review of ${subject}` : 'Review'} wide>
      <p>
        <a href="/admin/reviews">All reviews</a>
      </p>
      <ErrorNotice error={loaded.error} />
      {review && (
        <>
          <dl class="admin-facts">
            <dt>Kind</dt>
            <dd>{review.kind === 'registration' ? `${review.mode} signup` : 'room'}</dd>
            {review.kind === 'registration' ? (
              <>
                <dt>Username</dt>
                <dd>{review.username}</dd>
                {review.userId && (
                  <>
                    <dt>Account</dt>
                    <dd>
                      <a href={`/admin/users/${review.userId}`}>{review.username}</a>
                    </dd>
                  </>
                )}
              </>
            ) : (
              <>
                <dt>Room</dt>
                <dd>
                  <a href={`/admin/rooms/${review.roomId}`}>{review.roomName}</a>
                </dd>
                <dt>Owner</dt>
                <dd>
                  <a href={`/admin/users/${review.ownerId}`}>{review.ownerId}</a>
                </dd>
              </>
            )}
            <dt>State</dt>
            <dd>{review.state}</dd>
            <dt>Requested</dt>
            <dd>{formatTime(review.requestedAt)}</dd>
            <dt>Expires</dt>
            <dd>{formatTime(review.expiresAt)}</dd>
            {review.decision && <DecisionFacts decision={review.decision} />}
            {review.workflowUrl && (
              <>
                <dt>Workflow</dt>
                <dd>
                  <a href={review.workflowUrl} target="_blank" rel="noopener noreferrer">
                    Open in the Temporal UI<span class="visually-hidden"> (opens in a new tab)</span>
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
  return (
    <>
      <dt>Decided by</dt>
      <dd>{props.decision.reviewer}</dd>
      <dt>Decided</dt>
      <dd>{formatTime(props.decision.decidedAt)}</dd>
      {props.decision.reason && (
        <>
          <dt>Reason</dt>
          <dd>{props.decision.reason}</dd>
        </>
      )}
    </>
  );
}
