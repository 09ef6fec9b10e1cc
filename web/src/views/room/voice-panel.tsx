/**
 * The room's voice call (members with `use_webrtc`): join and leave, mute, and who is in the
 * call with who is speaking. Joins and leaves are announced in a polite live region. The call
 * itself lives in web/src/voice/; it ends when this panel unmounts (leaving the room page).
 */
import { useEffect, useMemo } from 'preact/hooks';
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { VoiceCall } from '../../voice/voice-call.js';
import { useT } from '../../i18n/use-t.js';

export function VoicePanel(props: { session: RoomSession }) {
  const t = useT();
  const { session } = props;
  const call = useMemo(() => new VoiceCall(session), [session]);
  useEffect(() => () => call.dispose(), [call]);
  const view = session.view.value;
  if (!view) return null;
  const participants = view.voice ?? [];
  const state = call.state.value;
  const muted = call.muted.value;
  const speaking = call.speaking.value;
  const me = view.me.userId;

  return (
    <section aria-labelledby="voice-heading">
      <h2 id="voice-heading">{t('room.voice.heading')}</h2>
      <ErrorNotice error={call.error.value} onDismiss={() => (call.error.value = null)} />
      <p class="visually-hidden" aria-live="polite">
        {call.announcement.value}
      </p>
      <div class="voice-actions">
        {state === 'idle' ? (
          <button type="button" onClick={() => void call.join()}>
            {t('room.voice.join')}
          </button>
        ) : (
          <button type="button" class="button-danger" disabled={state === 'joining'} onClick={() => void call.leave()}>
            {state === 'joining' ? t('room.voice.joining') : t('room.voice.leave')}
          </button>
        )}
        <button type="button" aria-pressed={muted} onClick={() => void call.setMuted(!muted)}>
          {muted ? t('room.voice.unmute') : t('room.voice.mute')}
        </button>
      </div>
      {participants.length === 0 ? (
        <p>{t('room.voice.empty')}</p>
      ) : (
        <ul class="member-list voice-participants" aria-label={t('room.voice.list')}>
          {participants.map((participant) => {
            const talking = speaking.has(participant.userId);
            return (
              <li key={participant.userId} class={talking ? 'member voice-speaking' : 'member'} data-user-id={participant.userId}>
                <span class="member-name">
                  <span class={talking ? 'presence online' : 'presence'} aria-hidden="true" />
                  {participant.userId === me ? t('room.voice.you', { name: participant.name }) : participant.name}
                </span>
                <span class="member-meta">
                  {participant.muted ? <span class="voice-muted">{t('room.voice.muted')}</span> : null}
                  {talking ? <span class="voice-talking">{t('room.voice.speaking')}</span> : null}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
