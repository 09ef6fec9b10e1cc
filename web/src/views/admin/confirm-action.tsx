/**
 * A destructive action asked twice: the first press shows what will happen and a confirm
 * button (focused, so a keyboard user lands on it), the second does it. Inline rather than a
 * modal, so focus and reading order stay simple at any width.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useT } from '../../i18n/use-t.js';

export function ConfirmAction(props: { label: string; question: string; confirmLabel: string; danger?: boolean; onConfirm: () => Promise<void> }) {
  const t = useT();
  const [asking, setAsking] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const confirmButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);
  const run = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      setAsking(false);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  const kind = props.danger === false ? 'button-primary' : 'button-danger';
  return (
    <div class="confirm-action">
      {!asking ? (
        <button type="button" class={kind} onClick={() => setAsking(true)}>
          {props.label}
        </button>
      ) : (
        <div class="confirm-box" role="group" aria-label={props.label}>
          <p>{props.question}</p>
          <div class="button-row">
            <button type="button" ref={confirmButton} class={kind} disabled={busy} aria-busy={busy} onClick={() => void run()}>
              {busy ? t('admin.list.busy', { label: props.confirmLabel }) : props.confirmLabel}
            </button>
            <button type="button" disabled={busy} onClick={() => setAsking(false)}>
              {t('common.cancel')}
            </button>
          </div>
        </div>
      )}
      <ErrorNotice error={error} onDismiss={() => setError(null)} />
    </div>
  );
}
