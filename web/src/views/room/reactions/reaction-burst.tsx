/**
 * Reactions over the video: the button by the player controls sends one, and the overlay shows
 * everyone's floating up for a couple of seconds. The overlay takes no clicks (pointer-events:
 * none) and is hidden from screen readers; it keeps at most MAX_FLOATING at once, so a burst of a
 * hundred people costs a bounded number of elements.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { RoomSession } from '../../../state/room.js';
import { useAction } from '../../../ui/use-action.js';
import './reactions.css';
import { REACTIONS, REACTION_EMOJI, reactionLabel, type ReactionName } from './reaction-names.js';
import { useT } from '../../../i18n/use-t.js';

/** The menu's face (decorative, hidden from screen readers: the summary carries the name). */
const FACE = '☺';
const FLOAT_MS = 2400;
const MAX_FLOATING = 40;

interface Floating {
  key: number;
  reaction: ReactionName;
  /** Horizontal place, percent of the player's width. */
  left: number;
}

export function ReactionBurst(props: { session: RoomSession }) {
  const [floating, setFloating] = useState<Floating[]>([]);
  const next = useRef(0);
  useEffect(() => {
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const off = props.session.onEvent((event) => {
      if (event.type !== 'reaction') return;
      const key = (next.current += 1);
      setFloating((list) => [...list, { key, reaction: event.reaction, left: 8 + Math.random() * 84 }].slice(-MAX_FLOATING));
      const timer = setTimeout(() => {
        timers.delete(timer);
        setFloating((list) => list.filter((entry) => entry.key !== key));
      }, FLOAT_MS);
      timers.add(timer);
    });
    return () => {
      off();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [props.session]);
  return (
    <div class="reaction-burst" aria-hidden="true">
      {floating.map((entry) => (
        <span key={entry.key} class="reaction-float" data-reaction={entry.reaction} style={{ left: `${entry.left}%` }}>
          {REACTION_EMOJI[entry.reaction]}
        </span>
      ))}
    </div>
  );
}

/** The reaction menu by the player controls (send_chat). */
export function ReactionButton(props: { session: RoomSession }) {
  const t = useT();
  const action = useAction();
  if (!props.session.can('send_chat')) return null;
  return (
    <details class="reaction-menu player-reactions">
      <summary aria-label={t('chat.reactions.send')} title={action.error ? t('chat.reactions.tooMany') : t('chat.reactions.send')}>
        <span aria-hidden="true">{FACE}</span>
      </summary>
      <div class="reaction-menu-list" role="group" aria-label={t('chat.reactions.overVideo')}>
        {REACTIONS.map((reaction) => (
          <button
            key={reaction}
            type="button"
            class="reaction-pick"
            aria-label={reactionLabel(reaction)}
            title={reactionLabel(reaction)}
            onClick={() => void action.run(() => props.session.send({ kind: 'reaction.send', reaction }))}
          >
            {REACTION_EMOJI[reaction]}
          </button>
        ))}
      </div>
    </details>
  );
}
