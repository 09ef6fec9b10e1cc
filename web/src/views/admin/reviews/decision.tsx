/**
 * Approve or reject one review. Rejecting needs a reason (the requester is shown it), so it
 * opens a small form; the decision's answer (the review as recorded) goes to `onDecided`.
 */
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api, call } from '../../../api/client.js';
import type { ApiError } from '../../../api/errors.js';
import { asApiError } from '../../../api/errors.js';
import type { Schemas } from '../../../api/types.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { SubmitButton } from '../../../ui/field.js';
// A leaf module (no imports): the server's own limit, not a copy of it.
import { REASON_MAX_CHARS } from '../../../../../contracts/review.js';
import { useT } from '../../../i18n/use-t.js';

export function Decision(props: { reviewId: string; subject: string; onDecided: (review: Schemas['Review']) => void }) {
  const t = useT();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | null>(null);
  const reasonBox = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  useEffect(() => {
    if (rejecting) reasonBox.current?.focus();
  }, [rejecting]);

  const decide = async (request: () => Promise<Schemas['Review']>): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      props.onDecided(await request());
    } catch (caught) {
      const failure = asApiError(caught);
      setError(failure);
      setReasonError(failure.issueFor('reason'));
    } finally {
      setBusy(false);
    }
  };
  const path = { params: { path: { reviewId: props.reviewId } } };
  const approve = () => decide(() => call(api.POST('/api/admin/reviews/{reviewId}/approve', { ...path, body: {} })));
  const reject = () => {
    const text = reason.trim();
    if (!text) {
      setReasonError(t('admin.reviews.decision.sayWhy'));
      reasonBox.current?.focus();
      return;
    }
    setReasonError(undefined);
    void decide(() => call(api.POST('/api/admin/reviews/{reviewId}/reject', { ...path, body: { reason: text } })));
  };

  return (
    <div class="review-decision">
      {!rejecting ? (
        <div class="button-row">
          <button type="button" class="button-primary" disabled={busy} aria-busy={busy} onClick={() => void approve()} aria-label={t('admin.reviews.decision.approveLabel', { subject: props.subject })}>
            {t('admin.reviews.decision.approve')}
          </button>
          <button type="button" class="button-danger" disabled={busy} onClick={() => setRejecting(true)} aria-label={t('admin.reviews.decision.rejectLabel', { subject: props.subject })}>
            {t('admin.reviews.decision.reject')}
          </button>
        </div>
      ) : (
        <form
          class="form"
          aria-label={t('admin.reviews.decision.rejectLabel', { subject: props.subject })}
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            reject();
          }}
        >
          <div class="field">
            <label for={`${id}-reason`}>{t('admin.reviews.decision.reason', { subject: props.subject })}</label>
            <p class="field-hint" id={`${id}-hint`}>
              {t('admin.reviews.decision.reasonHint', { max: REASON_MAX_CHARS })}
            </p>
            <textarea
              id={`${id}-reason`}
              ref={reasonBox}
              rows={3}
              required
              maxLength={REASON_MAX_CHARS}
              value={reason}
              onInput={(event) => setReason(event.currentTarget.value)}
              aria-invalid={reasonError ? true : undefined}
              aria-describedby={reasonError ? `${id}-hint ${id}-error` : `${id}-hint`}
            />
            {reasonError && (
              <p class="field-error" id={`${id}-error`}>
                {reasonError}
              </p>
            )}
          </div>
          <div class="button-row">
            <SubmitButton busy={busy} class="button-danger">
              {t('admin.reviews.decision.reject')}
            </SubmitButton>
            <button type="button" disabled={busy} onClick={() => setRejecting(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </form>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
    </div>
  );
}
