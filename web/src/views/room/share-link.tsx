/**
 * The room's join link with a copy button. The link also stays in a read-only field, so it can
 * be selected and copied by hand where the Clipboard API is refused (no permission, http).
 */
import { useId, useState } from 'preact/hooks';

export function ShareLink(props: { roomId: string }) {
  const id = useId();
  const link = `${location.origin}/rooms/${encodeURIComponent(props.roomId)}`;
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <div class="share-link">
      <label for={id}>Join link</label>
      <div class="share-row">
        <input id={id} type="text" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>
          Copy link
        </button>
      </div>
      <p class="muted share-status" aria-live="polite">
        {state === 'copied' ? 'Link copied.' : state === 'failed' ? 'Copying is not allowed here: select the link above and copy it.' : ''}
      </p>
    </div>
  );
}
