/**
 * Reactions under a chat message: one chip per reaction given (emoji and count; pressed when it
 * is one's own, which a press takes back), and a menu of the whole set to add one. Who reacted
 * is the chip's title and its accessible name.
 */
import type { ChatReaction } from '../../../../../contracts/room/model.js';
import type { ChatMessage } from '../../../state/room-view.js';
import type { RoomSession } from '../../../state/room.js';
import { REACTIONS, REACTION_EMOJI, reactionLabel, type ReactionName } from './reaction-names.js';
import { useT } from '../../../i18n/use-t.js';

/** The add-a-reaction face (decorative, hidden from screen readers: the summary carries the name). */
const ADD_FACE = '+☺';

export function ReactionChips(props: { session: RoomSession; message: ChatMessage; run: (work: () => Promise<unknown>) => Promise<unknown> }) {
  const t = useT();
  const { session, message, run } = props;
  const me = session.view.value?.me.userId;
  const canReact = session.can('send_chat');
  const nameOf = (userId: string) => session.view.value?.members?.find((member) => member.userId === userId)?.name ?? t('chat.reactions.someone');
  const toggle = (reaction: ReactionName, mine: boolean) =>
    void run(() => session.send({ kind: mine ? 'chat.unreact' : 'chat.react', messageId: message.id, reaction }));
  // A message from an actor host of the previous release (during a rolling upgrade) has no list.
  const given: ChatReaction[] = (message as { reactions?: ChatReaction[] }).reactions ?? [];
  if (given.length === 0 && !canReact) return null;
  return (
    <div class="reaction-chips">
      {given.map(({ reaction, userIds }) => {
        const mine = me !== undefined && userIds.includes(me);
        const names = userIds.map((id) => (id === me ? t('chat.reactions.you') : nameOf(id))).join(t('chat.reactions.separator'));
        const who = t('chat.reactions.by', { reaction: reactionLabel(reaction), names });
        return (
          <button
            key={reaction}
            type="button"
            class="reaction-chip"
            aria-pressed={mine}
            title={who}
            aria-label={`${who} (${userIds.length})`}
            disabled={!canReact}
            data-reaction={reaction}
            onClick={() => toggle(reaction, mine)}
          >
            <span aria-hidden="true">{REACTION_EMOJI[reaction]}</span> {userIds.length}
          </button>
        );
      })}
      {canReact && (
        <details class="reaction-menu">
          <summary class="button-quiet" aria-label={t('chat.reactions.reactTo', { name: message.name })} title={t('chat.reactions.react')}>
            <span aria-hidden="true">{ADD_FACE}</span>
          </summary>
          <div class="reaction-menu-list" role="group" aria-label={t('chat.reactions.menu')}>
            {REACTIONS.map((reaction) => {
              const mine = me !== undefined && (given.find((r) => r.reaction === reaction)?.userIds.includes(me) ?? false);
              return (
                <button
                  key={reaction}
                  type="button"
                  class="reaction-pick"
                  aria-label={reactionLabel(reaction)}
                  title={reactionLabel(reaction)}
                  aria-pressed={mine}
                  onClick={(event) => {
                    event.currentTarget.closest('details')?.removeAttribute('open');
                    toggle(reaction, mine);
                  }}
                >
                  {REACTION_EMOJI[reaction]}
                </button>
              );
            })}
          </div>
        </details>
      )}
    </div>
  );
}
