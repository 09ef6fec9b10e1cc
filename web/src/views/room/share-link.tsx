/**
 * The room's join link with a copy button. The link also stays in a read-only field, so it can
 * be selected and copied by hand where the Clipboard API is refused (no permission, http). Just
 * after its owner started the room (rooms/started-room.ts), it says the room is ready to share.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { roomLink, startedRoom } from '../rooms/started-room.js';
import { useT } from '../../i18n/use-t.js';

export function ShareLink(props: { roomId: string }) {
  const t = useT();
  const id = useId();
  const link = roomLink(props.roomId);
  const started = startedRoom.value?.roomId === props.roomId ? startedRoom.value : null;
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>(started?.copied ? 'copied' : 'idle');
  useEffect(
    () => () => {
      if (startedRoom.value?.roomId === props.roomId) startedRoom.value = null;
    },
    [props.roomId],
  );
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  const message =
    state === 'copied'
      ? started
        ? t('room.share.readyCopied')
        : t('room.share.copied')
      : state === 'failed'
        ? t('room.share.failed')
        : started
          ? t('room.share.ready')
          : '';
  return (
    <div class={started ? 'share-link is-new' : 'share-link'}>
      <label for={id}>{t('room.share.label')}</label>
      <input id={id} type="text" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        {t('room.share.copy')}
      </button>
      <p class="share-status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
