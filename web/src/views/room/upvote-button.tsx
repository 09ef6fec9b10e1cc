/**
 * The up-vote button of a playlist item in the voting queue mode: "▲ 2", pressed when the
 * member voted for it; the most up-voted item plays next (docs/2026-11-26-votes-and-polls.md).
 */
import type { RoomSession } from '../../state/room.js';
import type { Action } from '../../ui/use-action.js';
import { useT } from '../../i18n/use-t.js';

export function UpvoteButton(props: { session: RoomSession; action: Action; mediaId: string; title: string }) {
  const t = useT();
  const { session, action, mediaId, title } = props;
  const view = session.view.value;
  if (!view || view.room.queueMode !== 'vote' || !session.can('vote')) return null;
  const votes = view.queueVotes?.find((entry) => entry.mediaId === mediaId);
  const mine = votes?.voters.includes(view.me.userId) ?? false;
  const count = votes?.votes ?? 0;
  return (
    <button
      type="button"
      class="button-quiet upvote"
      aria-pressed={mine}
      aria-label={t('room.upvote', { title, count })}
      onClick={() => void action.run(() => session.send({ kind: 'playlist.vote', mediaId, vote: !mine }))}
    >
      ▲ {count}
    </button>
  );
}
