import { asApiError } from '../../api/errors.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { passkeyProblem } from '../../auth/passkey-client.js';
import { useT } from '../../i18n/use-t.js';

/**
 * An error of a sign-in or signup form. Review states get their own wording (they are not a
 * mistake of the person), and a passkey prompt the browser refused says what happened instead
 * of blaming the server.
 */
export function AuthError(props: { error: unknown }) {
  const t = useT();
  if (props.error == null) return null;
  const browser = passkeyProblem(props.error);
  if (browser) {
    return (
      <div class="notice notice-error" role="alert">
        <p class="notice-title">{t('auth.passkey.notUsed')}</p>
        <p>{browser}</p>
      </div>
    );
  }
  const error = asApiError(props.error);
  if (error.code === 'review_pending') {
    return (
      <div class="notice" role="alert">
        <p class="notice-title">{t('auth.review.waitingTitle')}</p>
        <p>{t('auth.review.waiting')}</p>
        <p class="notice-meta">{error.message}</p>
      </div>
    );
  }
  if (error.code === 'review_rejected') {
    return (
      <div class="notice notice-error" role="alert">
        <p class="notice-title">{t('auth.review.rejected')}</p>
        <p>{error.message}</p>
      </div>
    );
  }
  return <ErrorNotice error={props.error} />;
}
