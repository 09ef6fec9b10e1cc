/**
 * The chat's message field: what it answers (a quoted line with a cancel), and after an `@` a
 * list of members to mention, filtered by what follows it and chosen with the arrow keys and
 * Enter or Tab (Escape closes it), or by pointer; in a crowd, the members found on the server
 * by what follows it too (`search`). With the room's emotes, a picker that writes `:name:`
 * where the caret is.
 */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import type { MentionCandidate } from '../../../../../contracts/room/mentions.js';
import type { ChatMessage } from '../../../state/room-view.js';
import type { Emote } from '../../../state/room-emotes.js';
import { insertMention, mentionQuery, suggestions, type MentionQuery } from './mention-suggestions.js';
import { MentionSearch, withFound, type SearchMembers } from '../../../state/mention-search.js';
import { Rich } from '../../../i18n/rich.js';
import { useT } from '../../../i18n/use-t.js';

export function ChatComposer(props: {
  members: MentionCandidate[];
  /** Searches everyone else by name: a crowd's members are not all in `members`. */
  search?: SearchMembers | undefined;
  replyTo: ChatMessage | null;
  onCancelReply: () => void;
  busy: boolean;
  onSend: (text: string) => Promise<boolean>;
  emotes: Emote[];
}) {
  const t = useT();
  const [text, setText] = useState('');
  const [query, setQuery] = useState<MentionQuery | undefined>(undefined);
  const [chosen, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const search = useMemo(() => (props.search ? new MentionSearch(props.search) : undefined), [props.search]);
  useEffect(() => () => search?.stop(), [search]);
  const offered = query ? suggestions(query, withFound(props.members, search?.members.value ?? [])) : [];
  const open = offered.length > 0;
  // A search's answer may offer fewer than the one before it.
  const active = Math.min(chosen, Math.max(0, offered.length - 1));

  const follow = (value: string, caret: number) => {
    const next = mentionQuery(value, caret);
    setText(value);
    setQuery(next);
    setActive(0);
    search?.ask(next?.prefix);
  };

  const choose = (member: MentionCandidate) => {
    const element = input.current;
    if (!element || !query) return;
    const next = insertMention(text, element.selectionStart ?? text.length, query, member.name);
    setText(next.text);
    setQuery(undefined);
    // After Preact wrote the value: put the caret after the inserted name.
    requestAnimationFrame(() => {
      element.focus();
      element.setSelectionRange(next.caret, next.caret);
    });
  };

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && props.replyTo && !open) {
      props.onCancelReply();
      return;
    }
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((active + (event.key === 'ArrowDown' ? 1 : offered.length - 1)) % offered.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      const member = offered[active];
      if (member) choose(member);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      setQuery(undefined);
    }
  };

  const insertEmote = (emote: Emote) => {
    const element = input.current;
    const caret = element?.selectionStart ?? text.length;
    const before = text.slice(0, caret);
    const piece = `${before === '' || before.endsWith(' ') ? '' : ' '}:${emote.name}: `;
    const next = before + piece + text.slice(caret);
    setText(next);
    requestAnimationFrame(() => {
      element?.focus();
      element?.setSelectionRange(caret + piece.length, caret + piece.length);
    });
  };

  const submit = async (event: Event) => {
    event.preventDefault();
    const message = text.trim();
    if (!message) return;
    if (await props.onSend(message)) {
      setText('');
      setQuery(undefined);
    }
  };

  return (
    <form class="chat-form" onSubmit={(event) => void submit(event)}>
      {props.replyTo && (
        <p class="chat-replying" data-testid="replying-to">
          <span class="chat-quote-line">
            <Rich k="chat.composer.replyingTo" parts={{ name: <strong>{props.replyTo.name}</strong> }} values={{ text: props.replyTo.text }} />
          </span>
          <button type="button" class="button-quiet" onClick={props.onCancelReply}>
            {t('chat.composer.cancelReply')}
          </button>
        </p>
      )}
      <div class="chat-compose-row">
        <label for="chat-input" class="visually-hidden">
          {t('chat.composer.message')}
        </label>
        <input
          id="chat-input"
          ref={input}
          type="text"
          value={text}
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? "mention-list" : undefined}
          aria-activedescendant={open ? `mention-option-${active}` : undefined}
          onInput={(event) => follow(event.currentTarget.value, event.currentTarget.selectionStart ?? event.currentTarget.value.length)}
          onKeyDown={onKeyDown}
          maxLength={2000}
          autocomplete="off"
          placeholder={t('chat.composer.placeholder')}
        />
        <button type="submit" class="button-primary" disabled={props.busy}>
          {t('chat.composer.send')}
        </button>
      </div>
      {props.emotes.length > 0 && (
        <details class="emote-picker">
          <summary>{t('chat.composer.emotes')}</summary>
          <ul class="emote-choices" aria-label={t('chat.composer.roomEmotes')}>
            {props.emotes.map((emote) => (
              <li key={emote.name}>
                <button type="button" class="button-quiet" title={`:${emote.name}:`} onClick={() => insertEmote(emote)}>
                  <img class="emote" src={emote.url} alt="" width={emote.width} height={emote.height} />
                  <span class="visually-hidden">{t('chat.composer.insertEmote', { name: emote.name })}</span>
                </button>
              </li>
            ))}
          </ul>
        </details>
      )}
      {open && (
        <ul id="mention-list" class="mention-list" role="listbox" aria-label={t('chat.composer.mentionList')}>
          {offered.map((member, i) => (
            <li
              key={member.id}
              id={`mention-option-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? 'is-active' : undefined}
              onMouseDown={(event) => {
                event.preventDefault();
                choose(member);
              }}
            >
              {member.name}
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
