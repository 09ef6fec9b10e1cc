/**
 * Under the player: "Share your screen", with the choice to keep the room's video playing under
 * the share (while it is on, its Stop button is on the stage). Shown only to members with
 * share_screen, in a room whose calls go through an SFU, in a browser that can capture a screen
 * (getDisplayMedia: phones have none and never see the button).
 */
import { useState } from 'preact/hooks';
import type { RoomCall } from '../../../call/room-call.js';
import type { RoomSession } from '../../../state/room.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { useT } from '../../../i18n/use-t.js';

export const canCaptureScreen = (): boolean => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';

export function ShareControls(props: { session: RoomSession; call: RoomCall }) {
  const t = useT();
  const { session, call } = props;
  const [keepPlaying, setKeepPlaying] = useState(false);
  if (call.mode.value !== 'sfu' || !session.can('share_screen') || !canCaptureScreen()) return null;
  const share = call.share.value;
  return (
    <div class="share-controls">
      <ErrorNotice error={call.shareError.value} onDismiss={() => (call.shareError.value = null)} />
      {share === 'idle' ? (
        <>
          <button type="button" onClick={() => void call.startShare(keepPlaying)}>
            {t('call.share.start')}
          </button>
          <label class="share-keep-playing">
            <input type="checkbox" checked={keepPlaying} onChange={(event) => setKeepPlaying(event.currentTarget.checked)} />
            {t('call.share.keepPlaying')}
          </label>
        </>
      ) : share === 'starting' ? (
        <button type="button" disabled>
          {t('call.share.starting')}
        </button>
      ) : null}
    </div>
  );
}
