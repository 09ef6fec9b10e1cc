/** What a signup filed for review shows instead of signing in. */
export function PendingReview(props: { reviewId: string }) {
  return (
    <div class="notice auth-review" role="status">
      <p class="notice-title">Waiting for review</p>
      <p>Your account was created and is waiting for review by an administrator. You can sign in once it is approved; until then, signing in says it is still under review.</p>
      <p class="notice-meta">Review id: {props.reviewId}</p>
      <p>
        <a href="/rooms">Back to the rooms</a>
      </p>
    </div>
  );
}
