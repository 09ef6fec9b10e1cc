import { ERROR_TITLES, asApiError, inWords } from '../api/errors.js';

/**
 * An API error as a person reads it: what kind of problem, the server's precise message, when
 * to try again if the server said (Retry-After), and the id to quote.
 */
export function ErrorNotice(props: { error: unknown; onDismiss?: () => void }) {
  if (props.error == null) return null;
  const error = asApiError(props.error);
  return (
    <div class="notice notice-error" role="alert">
      <p class="notice-title">{ERROR_TITLES[error.code]}</p>
      <p>{error.message}</p>
      {error.retryAfterSeconds !== undefined && <p>You can try again {inWords(error.retryAfterSeconds)}.</p>}
      {error.issues.length > 1 && (
        <ul>
          {error.issues.map((issue) => (
            <li key={issue.key}>
              <code>{issue.key}</code>: {issue.message}
            </li>
          ))}
        </ul>
      )}
      {error.requestId && <p class="notice-meta">Request id: {error.requestId}</p>}
      {props.onDismiss && (
        <button type="button" class="button-quiet" onClick={props.onDismiss}>
          Dismiss
        </button>
      )}
    </div>
  );
}

