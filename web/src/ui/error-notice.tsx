import type { ComponentChildren } from 'preact';
import { asApiError, asSentence, errorTitle } from '../api/errors.js';
import { formatWait } from '../i18n/format.js';
import { useT } from '../i18n/use-t.js';

/**
 * An API error as a person reads it: what kind of problem (when the code's title fits), the
 * server's precise message, when to try again if the server said (Retry-After), what to do
 * next when the view knows (`next`), and the id to quote.
 *
 * `title` replaces the code's title when the view knows better what happened (null: none).
 */
export function ErrorNotice(props: { error: unknown; onDismiss?: () => void; title?: string | null | undefined; next?: ComponentChildren }) {
  const t = useT();
  if (props.error == null) return null;
  const error = asApiError(props.error);
  const title = props.title !== undefined ? props.title : errorTitle(error.code);
  return (
    <div class="notice notice-error" role="alert">
      {title && <p class="notice-title">{title}</p>}
      <p>{asSentence(error.message)}</p>
      {error.retryAfterSeconds !== undefined && <p>{t('errors.tryAgain', { when: formatWait(error.retryAfterSeconds) })}</p>}
      {props.next != null && props.next !== false && <p class="notice-next">{props.next}</p>}
      {error.issues.length > 1 && (
        <ul>
          {error.issues.map((issue) => (
            <li key={issue.key}>
              <code>{issue.key}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
      {error.requestId && <p class="notice-meta">{t('errors.requestId', { id: error.requestId })}</p>}
      {props.onDismiss && (
        <button type="button" class="button-quiet" onClick={props.onDismiss}>
          {t('common.dismiss')}
        </button>
      )}
    </div>
  );
}
