/**
 * The room's join link with a copy button. The link also stays in a read-only field, so it can
 * be selected and copied by hand where the Clipboard API is refused (no permission, http). Just
 * after its owner started the room (rooms/started-room.ts), it says the room is ready to share.
 */
import { useEffect, useId, useState } from 'preact/hooks';
import { roomLink, startedRoom } from '../rooms/started-room.js';

export function ShareLink(props: { roomId: string }) {
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
        ? 'Your room is ready and its link is copied: send it to the people you want to watch with.'
        : 'Link copied.'
      : state === 'failed'
        ? 'Copying is not allowed here: select the link and copy it.'
        : started
          ? 'Your room is ready: copy its link and send it to the people you want to watch with.'
          : '';
  return (
    <div class={started ? 'share-link is-new' : 'share-link'}>
      <label for={id}>Join link</label>
      <input id={id} type="text" readOnly value={link} onFocus={(event) => event.currentTarget.select()} />
      <button type="button" onClick={() => void copy()}>
        Copy link
      </button>
      <p class="share-status" aria-live="polite">
        {message}
      </p>
    </div>
  );
}
