import { useT } from '../../i18n/use-t.js';

/** What a signup filed for review shows instead of signing in. */
export function PendingReview(props: { reviewId: string }) {
  const t = useT();
  return (
    <div class="notice auth-review" role="status">
      <p class="notice-title">{t('auth.review.pendingTitle')}</p>
      <p>{t('auth.review.pending')}</p>
      <p class="notice-meta">{t('auth.review.id', { id: props.reviewId })}</p>
      <p>
        <a href="/rooms">{t('auth.review.back')}</a>
      </p>
    </div>
  );
}
