/**
 * The Voice tab when the room's calls go through the SFU (RoomCall.mode `sfu`): join and leave,
 * mute, the camera (off by default, per member), who is in the call with who speaks (ringed),
 * a moderator's Mute on the others, and the cameras as tiles with names. A room without an SFU
 * keeps the mesh voice panel. What happened to the call (it lost its server, a moderator muted
 * you) is said under the player (call-notice.tsx), whichever tab is open.
 */
import { Track, type Participant } from 'livekit-client';
import type { RoomCall } from '../../../call/room-call.js';
import type { RoomSession } from '../../../state/room.js';
import { asSentence } from '../../../api/errors.js';
import { ErrorNotice } from '../../../ui/error-notice.js';
import { useT } from '../../../i18n/use-t.js';
import { VoicePanel } from '../voice-panel.js';
import { TrackVideo } from './track-video.js';
import './call.css';

export function CallPanel(props: { session: RoomSession; call: RoomCall }) {
  const t = useT();
  const { session, call } = props;
  const mode = call.mode.value;
  if (mode === 'mesh') return <VoicePanel session={session} />;
  const view = session.view.value;
  if (!view) return null;
  const inCall = call.inCall.value;
  const connection = call.connection.value;
  const muted = call.muted.value;
  const camera = call.cameraOn.value;
  const everyone = call.participants().filter((participant) => call.isInCall(participant));
  const cameras = inCall ? everyone.filter((participant) => participant.getTrackPublication(Track.Source.Camera)?.track) : [];
  const busy = call.joining.value || connection === 'connecting' || connection === 'rejoining';

  return (
    <section aria-labelledby="call-heading" class="call-panel">
      <h2 id="call-heading">{t('call.heading')}</h2>
      <ErrorNotice error={call.error.value} onDismiss={() => (call.error.value = null)} />
      <p class="visually-hidden" aria-live="polite">
        {call.announcement.value}
      </p>
      {mode === 'probing' ? (
        <p>{t('call.checking')}</p>
      ) : mode === 'off' ? null : (
        <div class="voice-actions">
          {!inCall ? (
            <button type="button" disabled={busy} onClick={() => void call.join()}>
              {busy ? t('call.joining') : t('call.join')}
            </button>
          ) : (
            <button type="button" class="button-danger" onClick={() => void call.leave()}>
              {t('call.leave')}
            </button>
          )}
          <button type="button" aria-pressed={muted} onClick={() => void call.setMuted(!muted)}>
            {muted ? t('call.unmute') : t('call.mute')}
          </button>
          {inCall && (camera || call.cameraRefused.value === null) ? (
            <button type="button" aria-pressed={camera} onClick={() => void call.setCamera(!camera)}>
              {camera ? t('call.cameraOff') : t('call.cameraOn')}
            </button>
          ) : null}
        </div>
      )}
      {inCall && !camera && call.cameraRefused.value !== null ? <p class="call-camera-refused">{asSentence(call.cameraRefused.value)}</p> : null}
      {cameras.length > 0 ? (
        <ul class="call-tiles" aria-label={t('call.cameras')}>
          {cameras.map((participant) => (
            <li key={participant.identity} class={participant.isSpeaking ? 'call-tile is-speaking' : 'call-tile'} data-user-id={participant.identity}>
              <TrackVideo track={participant.getTrackPublication(Track.Source.Camera)!.track!} class="call-tile-video" label={nameOf(participant, call)} />
              <span class="call-tile-name">{participant.identity === view.me.userId ? t('call.you', { name: nameOf(participant, call) }) : nameOf(participant, call)}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {everyone.length === 0 ? (
        <p>{t('call.empty')}</p>
      ) : (
        <ul class="member-list voice-participants" aria-label={t('call.list')}>
          {everyone.map((participant) => (
            <Member key={participant.identity} participant={participant} call={call} me={view.me.userId} />
          ))}
        </ul>
      )}
    </section>
  );
}

const nameOf = (participant: Participant, call: RoomCall): string => participant.name || call.nameOf(participant.identity);

function Member(props: { participant: Participant; call: RoomCall; me: string }) {
  const t = useT();
  const { participant, call, me } = props;
  // The participant is the same object as it changes: read the call's revision so that this row
  // renders again with it (@preact/signals skips a component whose props and signals are unchanged).
  void call.revision.value;
  const name = nameOf(participant, call);
  const mine = participant.identity === me;
  const microphone = participant.getTrackPublication(Track.Source.Microphone);
  const muted = mine ? call.muted.value : (microphone?.isMuted ?? true);
  const talking = participant.isSpeaking && !muted;
  return (
    <li class={talking ? 'member voice-speaking' : 'member'} data-user-id={participant.identity}>
      <span class="member-name">
        <span class={talking ? 'presence online' : 'presence'} aria-hidden="true" />
        {mine ? t('call.you', { name }) : name}
      </span>
      <span class="member-meta">
        {muted ? <span class="voice-muted">{t('call.muted')}</span> : null}
        {talking ? <span class="voice-talking">{t('call.speaking')}</span> : null}
        {!mine && !muted && call.moderator.value ? (
          <button type="button" class="button-quiet" aria-label={t('call.muteOtherLabel', { name })} onClick={() => void call.muteOther(participant.identity)}>
            {t('call.muteOther')}
          </button>
        ) : null}
      </span>
    </li>
  );
}
