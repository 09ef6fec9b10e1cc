/**
 * The vote-skip button under the player: "Vote to skip (1 of 2)" while the room has vote-skip on
 * and something is current; pressed again, it takes the vote back. The count comes from the
 * room's `vote.skip` events (docs/2026-11-26-votes-and-polls.md).
 */
import type { RoomSession } from '../../state/room.js';
import { ErrorNotice } from '../../ui/error-notice.js';
import { useAction } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';

export function VoteSkip(props: { session: RoomSession }) {
  const t = useT();
  const { session } = props;
  const action = useAction();
  const view = session.view.value;
  const votes = view?.voteSkip;
  if (!view || !votes || votes.mediaId !== view.playback.mediaId || !session.can('vote')) return null;
  const voted = votes.voters.includes(view.me.userId);
  const count = t('room.voteSkip.count', { votes: votes.votes, needed: votes.needed });
  const toggle = () => action.run(() => session.send({ kind: 'playback.voteSkip', mediaId: votes.mediaId, vote: !voted }));
  return (
    <div class="vote-skip">
      <ErrorNotice error={action.error} onDismiss={action.clear} />
      <button type="button" aria-pressed={voted} disabled={action.busy} onClick={() => void toggle()}>
        {voted ? t('room.voteSkip.takeBack') : t('room.voteSkip.vote')}
      </button>{' '}
      <span class="muted" role="status" data-testid="vote-skip-count">
        {count}
      </span>
    </div>
  );
}
