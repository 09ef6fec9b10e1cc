import { asApiError } from '../../api/errors.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { passkeyProblem } from '../../auth/passkey-client.js';

/**
 * An error of a sign-in or signup form. Review states get their own wording (they are not a
 * mistake of the person), and a passkey prompt the browser refused says what happened instead
 * of blaming the server.
 */
export function AuthError(props: { error: unknown }) {
  if (props.error == null) return null;
  const browser = passkeyProblem(props.error);
  if (browser) {
    return (
      <div class="notice notice-error" role="alert">
        <p class="notice-title">The passkey was not used</p>
        <p>{browser}</p>
      </div>
    );
  }
  const error = asApiError(props.error);
  if (error.code === 'review_pending') {
    return (
      <div class="notice" role="alert">
        <p class="notice-title">Your account is waiting for review</p>
        <p>An administrator has not decided on your signup yet. You can sign in once it is approved.</p>
        <p class="notice-meta">{error.message}</p>
      </div>
    );
  }
  if (error.code === 'review_rejected') {
    return (
      <div class="notice notice-error" role="alert">
        <p class="notice-title">Your signup was turned down</p>
        <p>{error.message}</p>
      </div>
    );
  }
  return <ErrorNotice error={props.error} />;
}
