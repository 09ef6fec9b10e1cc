/**
 * The stage: while someone shares a screen (`view.stage`), it takes the video's place in the
 * room. Each share shows the sharer's screen track, "<name> is sharing their screen", how many
 * people watch it (everyone on the stage's connection but the sharer), and a Stop button for the sharer and for
 * moderators. Several shares (a room that allows more than one) sit side by side.
 */
import { Track, type Participant } from 'livekit-client';
import type { StageShare } from '../../../../../contracts/room/model.js';
import type { RoomCall } from '../../../call/room-call.js';
import { viewerCount } from '../../../call/viewers.js';
import type { RoomSession } from '../../../state/room.js';
import { useT } from '../../../i18n/use-t.js';
import { TrackVideo } from './track-video.js';
import './call.css';

export function Stage(props: { session: RoomSession; call: RoomCall }) {
  const t = useT();
  const { session, call } = props;
  const shares = session.view.value?.stage ?? [];
  if (shares.length === 0) return null;
  const participants = call.stageParticipants();
  return (
    <section class={shares.length > 1 ? 'stage is-several' : 'stage'} aria-label={t('call.stage.label')}>
      <div class="stage-shares">
        {shares.map((share) => (
          <StageItem key={share.userId} share={share} session={session} call={call} participants={participants} />
        ))}
      </div>
    </section>
  );
}

function StageItem(props: { share: StageShare; session: RoomSession; call: RoomCall; participants: Participant[] }) {
  const t = useT();
  const { share, session, call, participants } = props;
  void call.revision.value; // see call-panel.tsx Member
  const me = session.view.value?.me.userId;
  const mine = share.userId === me;
  const sharer = participants.find((participant) => participant.identity === share.userId);
  const track = sharer?.getTrackPublication(Track.Source.ScreenShare)?.track ?? null;
  const canStop = mine || call.moderator.value;
  const viewers = viewerCount(
    share.userId,
    participants.map((participant) => participant.identity),
  );
  const missing = call.mode.value === 'mesh' ? t('call.stage.noSfu') : call.mode.value === 'off' ? t('call.stage.noCall') : null;
  return (
    <figure class="stage-item" data-user-id={share.userId}>
      <div class="stage-screen">
        {track ? (
          <TrackVideo track={track} class="stage-video" label={t('call.stage.screen', { name: share.name })} />
        ) : (
          <p class="stage-waiting">{missing ?? t('call.stage.waiting')}</p>
        )}
      </div>
      <figcaption class="stage-caption">
        <span class="stage-who">{mine ? t('call.stage.you') : t('call.stage.sharing', { name: share.name })}</span>
        {call.stage.connection.value === 'connected' ? <span class="stage-viewers">{t('call.stage.viewers', { count: viewers })}</span> : null}
        {canStop ? (
          <button
            type="button"
            class="button-danger"
            aria-label={mine ? t('call.share.stop') : t('call.stage.stopLabel', { name: share.name })}
            onClick={() => void (mine && call.share.value !== 'idle' ? call.stopShare() : call.stopShareOf(share.userId))}
          >
            {mine ? t('call.share.stop') : t('call.stage.stop')}
          </button>
        ) : null}
      </figcaption>
    </figure>
  );
}
