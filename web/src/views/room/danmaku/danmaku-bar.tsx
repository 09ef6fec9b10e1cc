/**
 * Under the player when the room has danmaku on: a one-line comment sent at the player's time
 * (send_chat), and the viewer's own settings for this device (show, density, opacity).
 */
import { useState } from 'preact/hooks';
import { ROOM_LIMITS } from '../../../../../contracts/room/limits.js';
import { setDanmakuSettings, danmakuSettings, type DanmakuDensity } from '../../../danmaku/settings.js';
import type { PlayerSync } from '../../../player/player-sync.js';
import type { RoomSession } from '../../../state/room.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { useAction } from '../../../ui/use-action.js';
import { useT } from '../../../i18n/use-t.js';
import './danmaku.css';

export function DanmakuBar(props: { room: RoomSession; sync: PlayerSync | null; mediaId: string | null }) {
  const t = useT();
  const { room, sync, mediaId } = props;
  const [text, setText] = useState('');
  const action = useAction();
  const settings = danmakuSettings.value;
  if (room.view.value?.room.danmaku !== true) return null;
  const canSend = room.can('send_chat') && mediaId !== null && sync !== null;

  const send = async (event: Event) => {
    event.preventDefault();
    const comment = text.trim();
    if (!comment || !canSend) return;
    const ok = await action.run(() => room.send({ kind: 'danmaku.send', mediaId, position: sync.player.currentTime, text: comment }));
    if (ok) setText('');
  };

  return (
    <div class="danmaku-bar">
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      {canSend && (
        <form class="danmaku-form" onSubmit={(event) => void send(event)}>
          <label for="danmaku-input" class="visually-hidden">
            {t('chat.danmaku.comment')}
          </label>
          <input
            id="danmaku-input"
            type="text"
            value={text}
            maxLength={ROOM_LIMITS.danmakuMaxChars}
            autocomplete="off"
            placeholder={t('chat.danmaku.placeholder')}
            onInput={(event) => setText(event.currentTarget.value)}
          />
          <button type="submit" disabled={action.busy}>
            {t('chat.danmaku.send')}
            <span class="visually-hidden">{t('chat.danmaku.sendHidden')}</span>
          </button>
        </form>
      )}
      <details class="danmaku-settings">
        <summary>{t('chat.danmaku.settings')}</summary>
        <label class="check">
          <input type="checkbox" checked={settings.show} onChange={(event) => setDanmakuSettings({ show: event.currentTarget.checked })} />
          {t('chat.danmaku.show')}
        </label>
        <label>
          {t('chat.danmaku.density')}
          <select value={settings.density} onChange={(event) => setDanmakuSettings({ density: event.currentTarget.value as DanmakuDensity })}>
            <option value="low">{t('chat.danmaku.densities.low')}</option>
            <option value="normal">{t('chat.danmaku.densities.normal')}</option>
            <option value="high">{t('chat.danmaku.densities.high')}</option>
          </select>
        </label>
        <label>
          {t('chat.danmaku.opacity')}
          <input
            type="range"
            min="0.2"
            max="1"
            step="0.05"
            value={settings.opacity}
            onInput={(event) => setDanmakuSettings({ opacity: Number(event.currentTarget.value) })}
          />
        </label>
      </details>
    </div>
  );
}
