/**
 * Under the player, whichever tab is open: what happened to the SFU call, in words (it lost its
 * server and joins again, a moderator muted you or stopped your share), and a button to let the
 * call's sound play when the browser held it back (a member who watches the stage without
 * having clicked anything yet).
 */
import type { RoomCall } from '../../../call/room-call.js';
import { useT } from '../../../i18n/use-t.js';

export function CallNotice(props: { call: RoomCall }) {
  const t = useT();
  const { call } = props;
  const notice = call.notice.value;
  const blocked = call.soundBlocked.value;
  return (
    <div class="call-notice">
      <p role="status" class={notice ? 'notice' : 'visually-hidden'}>
        {notice}
      </p>
      {blocked ? (
        <p class="call-sound">
          <span>{t('call.soundBlocked')}</span>{' '}
          <button type="button" onClick={() => void call.playSound()}>
            {t('call.playSound')}
          </button>
        </p>
      ) : null}
    </div>
  );
}
